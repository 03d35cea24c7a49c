// The gate reads where a call really lands: a symlinked working directory or path cannot walk around a rule.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createGate } from "../src/gate/index.ts";
import { fakeHome, testContext } from "./support/index.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

const proj = join(home.home, "proj");
const keys = join(home.home, ".ssh");
mkdirSync(proj, { recursive: true });
mkdirSync(keys, { recursive: true });
writeFileSync(join(keys, "id_ed25519"), "not a key\n");
writeFileSync(join(proj, "README.md"), "x\n");
symlinkSync(proj, join(home.home, "linked-proj"));
symlinkSync(keys, join(proj, "keys"));
writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
writeFileSync(
  join(home.memnoxHome, "machine.policies.toml"),
  `version = 1
[[policies]]
name = "no-deletes-in-proj"
[policies.match]
actions = ["filesystem.delete"]
workingDirectories = ["${proj}"]
[policies.decision]
effect = "deny"
reason = "nothing is deleted in proj"
[[policies]]
name = "no-keys"
[policies.match]
actions = ["filesystem.read"]
targets = ["**/.ssh/**"]
[policies.decision]
effect = "deny"
reason = "keys stay unread"
`,
);

const gate = () => createGate(testContext(home, { cwd: proj }).ctx);

test("a workingDirectories rule holds when the agent stands in a symlink to that directory", async () => {
  const direct = await gate().decide({ surface: "hook", command: "rm README.md", cwd: proj, canAsk: true });
  expect(direct.effect).toBe("deny");
  const linked = join(home.home, "linked-proj");
  const via = await gate().decide({ surface: "hook", command: "rm README.md", cwd: linked, canAsk: true });
  expect(via.effect).toBe("deny");
  expect(via.reason).toContain("nothing is deleted in proj");
});

test("a target rule holds for a path reached through a symlinked folder, from a command or a file tool", async () => {
  const viaShell = await gate().decide({ surface: "hook", command: "cat keys/id_ed25519", cwd: proj, canAsk: true });
  expect(viaShell.effect).toBe("deny");
  const file = join(proj, "keys", "id_ed25519");
  const action = { name: "filesystem.read", class: "read" as const, targets: [file], arguments: {} };
  const viaTool = await gate().decide({ surface: "hook", action, cwd: proj, canAsk: true });
  expect(viaTool.effect).toBe("deny");
  expect(viaTool.reason).toContain("keys stay unread");
  const plain = await gate().decide({ surface: "hook", command: "cat README.md", cwd: proj, canAsk: true });
  expect(plain.effect).toBe("allow");
});
