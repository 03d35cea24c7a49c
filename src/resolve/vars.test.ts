import { expect, test } from "bun:test";
import { memnoxCommand, memnoxLoosens, settingLoosens } from "./commands/memnox.ts";
import { resolveCommand } from "./resolve.ts";

const ctx = { cwd: "/home/u/repo", home: "/home/u", env: { TMPDIR: "/tmp/t" } };
const targets = (line: string, name: string) =>
  resolveCommand(line, ctx)
    .actions.filter((a) => a.name === name)
    .flatMap((a) => a.targets);

test.each([
  ["d=.ssh; cat ~/$d/id_ed25519", "filesystem.read", ["/home/u/.ssh/id_ed25519"]],
  ["export D=/etc; rm -rf $D/x", "filesystem.delete", ["/etc/x/**"]],
  ['for f in a.ts b.ts; do cat "$f"; done', "filesystem.read", ["/home/u/repo/a.ts", "/home/u/repo/b.ts"]],
  ["cat $TMPDIR/out", "filesystem.read", ["/tmp/t/out"]],
  ["ln -s ~/.ssh /tmp/s && cat /tmp/s/id", "filesystem.read", ["/tmp/s/id", "/home/u/.ssh/id"]],
  ["mv ~/.aws /tmp/a; cat /tmp/a/credentials", "filesystem.read", ["/tmp/a/credentials", "/home/u/.aws/credentials"]],
])("%s", (line, name, want) => {
  expect(targets(line, name)).toEqual(want);
});

test("a value set for one command alone, or forgotten, is not known after", () => {
  expect(targets("d=.ssh cat ~/$d/id", "filesystem.read")).toEqual(["/home/u/$d/id"]);
  expect(targets("d=.ssh; read d; cat ~/$d/id", "filesystem.read")).toEqual(["/home/u/$d/id"]);
  expect(targets("d=.ssh; (d=x); cat ~/$d/id", "filesystem.read")).toEqual(["/home/u/.ssh/id"]);
});

test("where an action acts, when the line moved", () => {
  const cwd = (line: string) => resolveCommand(line, ctx).actions.find((a) => a.name === "git.push-force")?.cwd;
  expect(cwd("git -C /srv/r push -f")).toBe("/srv/r");
  expect(cwd("cd /srv/r && git push -f")).toBe("/srv/r");
  expect(cwd("git push -f")).toBeUndefined();
});

test("memnox's own commands: the loosening ones named, the rest not", () => {
  expect(memnoxCommand(["stop", "--for", "1h"]).loosens).toBeDefined();
  expect(memnoxCommand(["protect", "--revert"]).action).toBe("memnox.protect-revert");
  expect(memnoxCommand(["purge", "--dry-run"]).class).toBe("read");
  expect(memnoxCommand(["status"]).loosens).toBeUndefined();
  expect(memnoxCommand(["stop", "--help"]).class).toBe("read");
  // Back on in the mode it was stopped in: never looser than off.
  expect(memnoxCommand(["start"]).class).toBe("write");
  // What the record's commands change: grants, hand-overs, budgets, another session's lease, reviewed skills.
  for (const words of [
    ["allow", "git.*", "--for", "2h"],
    ["next", "--hand-over"],
    ["budget", "set", "git.push", "3"],
    ["budget", "remove", "git.push"],
    ["lock", "--release", "src"],
    ["lock", "--forget"],
    ["skills", "--accept"],
    ["protect", "--revert-os-guard"],
    ["run", "--no-guard", "--", "claude"],
  ])
    expect(memnoxCommand(words).loosens).toBeDefined();
  for (const words of [
    ["allow", "--list"],
    ["allow", "git.*", "--lift"],
    ["next"],
    ["budget"],
    ["lock", "src"],
    ["skills"],
    ["claims"],
  ])
    expect(memnoxCommand(words).loosens).toBeUndefined();
  const now = { mode: "enforce", failOpen: false, retentionDays: 30, approvedAgents: [] };
  expect(memnoxLoosens({ name: "memnox.lock-release", class: "destructive", targets: [] }, now)?.command).toBe(
    "memnox lock --release",
  );
  expect(settingLoosens("mode", "observe", now)).toBeDefined();
  expect(settingLoosens("mode", "enforce", now)).toBeUndefined();
  expect(settingLoosens("retentionDays", "90", now)).toBeUndefined();
  expect(settingLoosens("retentionDays", "7", now)).toBeDefined();
  expect(memnoxLoosens({ name: "memnox.freeze-lift", class: "destructive", targets: [] }, now)?.command).toBe(
    "memnox freeze --lift",
  );
});
