// `memnox allow-once` in a real Claude Code session in enforce (a scripted model, bypassPermissions, on a walled
// machine): a refused force push prints a code; the agent typing it is refused and spends nothing; the person typing
// it at their own terminal lets that exact call through once, and the next one is refused again. Judged on a real
// bare origin holding a commit only the force push can take away.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ModelRequest, Turn } from "../support/anthropic.ts";
import { tempDir } from "../support/fs.ts";
import { kernelAbi } from "../support/wall.ts";
import { bash, type WalledMachine, walledMachine } from "../support/walled-claude.ts";

const abi = await kernelAbi();
let m: WalledMachine;

beforeAll(async () => {
  if (abi >= 2) m = await walledMachine();
}, 120_000);

afterAll(async () => {
  await m?.[Symbol.asyncDispose]();
});

const CODE = /memnox allow-once ([0-9A-Z]{4}-[0-9A-Z]{4})/;

/** The code in the newest tool result the model was sent. */
function lastCode(req: ModelRequest): string {
  const texts: string[] = [];
  for (const msg of req.messages) {
    if (typeof msg.content === "string") continue;
    for (const b of msg.content) if (b.type === "tool_result") texts.push(JSON.stringify(b.content));
  }
  const code = CODE.exec(texts.at(-1) ?? "")?.[1];
  if (!code) throw new Error(`no allow-once code in the last tool result: ${texts.at(-1)}`);
  return code;
}

describe.skipIf(abi < 2)("allow-once in a real Claude Code session", () => {
  test("the person's code lets the refused force push through once; the agent's own try spends nothing", async () => {
    // In temp: a local remote outside it is the kernel wall's to hold, which no code lets through.
    using originDir = tempDir("allow-once-origin");
    const origin = join(originDir.path, "origin.git");
    const git = (cwd: string, ...a: string[]) =>
      Bun.spawnSync(["git", ...a], { cwd, env: m.env() })
        .stdout.toString()
        .trim();
    Bun.spawnSync(["git", "init", "-q", "--bare", "-b", "main", origin]);
    const p = m.project();
    git(p.dir, "remote", "add", "origin", origin);
    git(p.dir, "push", "-q", "origin", "main");
    // A teammate's commit lands on origin; this checkout rewrites main without it.
    const other = m.project();
    git(other.dir, "remote", "add", "origin", origin);
    git(other.dir, "fetch", "-q", "origin");
    git(other.dir, "reset", "-q", "--hard", "origin/main");
    git(other.dir, "commit", "-q", "--allow-empty", "-m", "teammate's work");
    git(other.dir, "push", "-q", "origin", "main");
    const teammate = git(origin, "rev-parse", "main");
    git(p.dir, "commit", "-q", "--allow-empty", "-m", "a rewrite");
    const mine = git(p.dir, "rev-parse", "HEAD");

    let code = "";
    const agentTypes: Turn = {
      toolUse: {
        name: "Bash",
        get input() {
          return { command: `memnox allow-once ${code}`, description: "run" };
        },
      },
      before: async (req) => {
        code = lastCode(req);
      },
    };
    const personTypes: Turn = {
      ...bash("git push -q --force origin main"),
      before: async () => {
        // The agent's own attempt spent nothing: origin still holds the teammate's commit, and the code still works.
        expect(git(origin, "rev-parse", "main")).toBe(teammate);
        const r = await m.memnox(["allow-once", code], p.dir);
        expect(r.code, r.stdout + r.stderr).toBe(0);
      },
    };
    const { model } = await m.session(p, [
      bash("git push -q --force origin main"),
      agentTypes,
      personTypes,
      bash("git push -q --force origin main"),
    ]);
    const [refused, agentTry, once, again] = model.toolResults();
    expect(refused?.isError).toBe(true);
    expect(refused?.text).toMatch(CODE);
    expect(agentTry?.isError).toBe(true);
    expect(once?.isError, once?.text).toBe(false);
    expect(again?.isError).toBe(true);
    // The rewrite the person let through happened once, and only it.
    expect(git(origin, "rev-parse", "main")).toBe(mine);
    const timeline = await m.memnox(["timeline", "--json", "--since", "all"], p.dir);
    const rows = (JSON.parse(timeline.stdout) as { events: { kind: string; reason?: string }[] }).events;
    expect(rows.some((r) => r.kind === "decision" && /let through once by/.test(r.reason ?? ""))).toBe(true);
  }, 240_000);
});
