// The launches the docs recommend, in enforce, in real Claude Code sessions: `memnox run -- claude` and
// `memnox run --untrusted -- claude`, on a machine with the agent wall and on one without. Tests run, a file is
// edited, a commit is made: memnox's own variables are never read as the agent's code injection.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { scriptedModel } from "../support/anthropic.ts";
import { kernelAbi } from "../support/wall.ts";
import { bash, type WalledMachine, walledMachine } from "../support/walled-claude.ts";

const abi = await kernelAbi();
let m: WalledMachine;

beforeAll(async () => {
  if (abi >= 4) m = await walledMachine();
}, 120_000);

afterAll(async () => {
  await m?.[Symbol.asyncDispose]();
});

async function work(untrusted: boolean, name: string): Promise<void> {
  const p = m.project({ "package.json": '{"name":"x","scripts":{"test":"node -e \\"console.log(42)\\""}}\n' });
  await using model = scriptedModel([
    bash("npm test 2>&1 | grep 42"),
    { toolUse: { name: "Write", input: { file_path: join(p.dir, `${name}.txt`), content: "hello\n" } } },
    bash(`git add -A && git commit -qm ${name} && git log --oneline | head -1`),
    { text: "finished" },
  ]);
  const run = await p.run("run the tests, add a file, commit", {
    launcher: [m.bin, "run", ...(untrusted ? ["--untrusted"] : []), "--"],
    permissionMode: "bypassPermissions",
    env: { ...m.env(), IS_SANDBOX: "1", ANTHROPIC_BASE_URL: model.url },
  });
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
  const [tests, write, commit] = model.toolResults();
  expect(tests?.text).toContain("42");
  expect(write?.isError).toBe(false);
  expect(commit?.text).toContain(name);
  expect(existsSync(join(p.dir, `${name}.txt`))).toBe(true);
}

describe.skipIf(abi < 4)("memnox run -- claude works in enforce", () => {
  test("with the agent wall", () => work(false, "walled"), 180_000);
  test("with --untrusted and the agent wall", () => work(true, "untrusted-walled"), 180_000);
  test("without the agent wall", async () => {
    expect((await m.memnox(["protect", "--revert-wall"])).code).toBe(0);
    await work(false, "plain");
    await work(true, "untrusted-plain");
  }, 360_000);
});
