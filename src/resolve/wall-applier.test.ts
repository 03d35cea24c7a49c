// The lines an agent wall puts between an agent and its shell, and the temp file a line makes for itself.
import { expect, test } from "bun:test";
import { resolveCommand } from "./index.ts";

const ctx = { cwd: "/home/u/repo", home: "/home/u" };
const actions = (line: string) => resolveCommand(line, ctx).actions.map((a) => [a.name, a.targets]);

test("the applier is read through: its one operand is the agent's own line", () => {
  expect(actions("'/home/u/.memnox/app/memnox-wall' 'git push --force origin main'")).toContainEqual([
    "git.push-force",
    ["origin", "main"],
  ]);
  expect(actions("/home/u/.memnox/app/memnox-wall -- rm -rf /home/u/x")).toContainEqual([
    "filesystem.delete",
    ["/home/u/x/**"],
  ]);
});

test("t=$(mktemp) names the fresh file mktemp prints, so a write through $t is a write in temp", () => {
  expect(actions("t=$(mktemp) && echo ok > $t && cat $t")).toEqual([
    ["shell.execute", ["t=$(mktemp) && echo ok >$t && cat $t"]],
    ["filesystem.write", ["/tmp"]],
    ["filesystem.write", ["/tmp/tmp.*"]],
    ["filesystem.read", ["/tmp/tmp.*"]],
  ]);
  expect(actions("d=$(mktemp -d -p /srv/scratch) && touch $d/x")).toContainEqual([
    "filesystem.write",
    ["/srv/scratch/tmp.*/x"],
  ]);
});
