// `memnox protect --os-guard`: the machine's kernel guard, written from the credential places and the rules that deny
// reading, raised by the governed shell and the interceptors around every program they start, and reported by doctor.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, gitRepo, runBinary } from "./support/index.ts";
import { kernelAbi, wallDir, wallHome } from "./support/wall.ts";

const KEY = "CANARY-GUARD-KEY-91ab";
const GH = "CANARY-GH-TOKEN-5e2f";
const AWS = "CANARY-AWS-SECRET-77c0";
const abi = await kernelAbi();

const RULES = `version = 1
[[policies]]
name = "no-notes"
[policies.match]
actions = ["filesystem.read"]
targets = ["~/private-notes/**"]
[policies.decision]
effect = "deny"
reason = "the notes are private"

[[policies]]
name = "no-env"
[policies.match]
actions = ["filesystem.read"]
targets = ["**/.env"]
[policies.decision]
effect = "deny"
reason = "env files hold secrets"
`;

describe.skipIf(abi < 1)("the machine's kernel guard", () => {
  const home = wallHome({
    ".ssh/id_ed25519": `${KEY}\n`,
    ".config/gh/hosts.yml": `github.com:\n  oauth_token: ${GH}\n`,
    ".aws/credentials": `[default]\naws_secret_access_key = ${AWS}\n`,
    "private-notes/a.txt": "private\n",
    "readable.txt": "plain\n",
  });
  const fakes = wallDir("clis");
  const repo = gitRepo({});
  let env: Record<string, string> = {};

  beforeAll(async () => {
    const bin = await compiledBinary();
    writeFileSync(join(home.memnoxHome, "machine.policies.toml"), RULES);
    writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "observe"\n');
    // Two CLIs as stand-ins, each reading both its own login and the other's, through their interceptors.
    for (const [cli, own, other] of [
      ["gh", ".config/gh/hosts.yml", ".aws/credentials"],
      ["aws", ".aws/credentials", ".config/gh/hosts.yml"],
    ] as const) {
      const script = join(fakes.path, cli);
      writeFileSync(script, `#!/bin/sh\ncat "$HOME/${own}" && echo "${cli}-own-ok"\ncat "$HOME/${other}"\nexit 0\n`);
      chmodSync(script, 0o755);
      mkdirSync(join(home.memnoxHome, "bin"), { recursive: true });
      symlinkSync(bin, join(home.memnoxHome, "bin", cli));
    }
    env = home.env({
      PATH: `${join(home.memnoxHome, "bin")}:${fakes.path}:${process.env.PATH}`,
      MEMNOX_REAL_SHELL: "/bin/bash",
    });
  });
  afterAll(() => {
    repo[Symbol.dispose]();
    fakes[Symbol.dispose]();
    home[Symbol.dispose]();
  });

  const shell = (line: string) => runBinary("memnox-shell", ["-c", line], { env, cwd: repo.path });

  test("is written from the credentials and the rules, and what no path can stand for is printed, not dropped", async () => {
    const r = await runBinary("memnox", ["protect", "--os-guard"], { env, cwd: repo.path });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`held by Landlock ABI ${abi}`);
    expect(r.stdout).toContain("~/.ssh");
    expect(r.stdout).toContain("~/private-notes");
    expect(r.stdout).toContain("not held, no path stands for it: **/.env (no-env)");
    const j = await runBinary("memnox", ["protect", "--os-guard", "--json"], { env, cwd: repo.path });
    const v = JSON.parse(j.stdout) as { held: boolean; unreadable: string[]; unexpressed: string[] };
    expect(v.held).toBe(true);
    expect(v.unreadable).toContain("~/.aws");
    expect(v.unexpressed).toEqual(["**/.env (no-env)"]);
  });

  test("a program the governed shell starts cannot read a credential even by absolute path, in observe", async () => {
    const r = await shell(`cat ${home.join(".ssh", "id_ed25519")}; cat ~/private-notes/a.txt; cat ~/readable.txt`);
    expect(r.stdout).not.toContain(KEY);
    expect(r.stdout).not.toContain("private");
    expect(r.stderr).toContain("Permission denied");
    expect(r.stdout).toContain("plain");
    // Reads only: writing is left to the rules. (A file made in home is readable from the next command on: the
    // guard grants what was in home when it went up.)
    expect((await shell("echo written > ~/made-by-shell.txt")).code).toBe(0);
    expect((await shell("cat ~/made-by-shell.txt")).stdout).toContain("written");
  });

  test("each CLI's interceptor leaves that CLI its own login, and only its own", async () => {
    const gh = await runBinary("gh", [], { env, cwd: repo.path });
    expect(gh.stdout).toContain(GH);
    expect(gh.stdout).toContain("gh-own-ok");
    expect(gh.stdout).not.toContain(AWS);
    const aws = await runBinary("aws", [], { env, cwd: repo.path });
    expect(aws.stdout).toContain(AWS);
    expect(aws.stdout).not.toContain(GH);
  });

  test("under memnox run, the agent's shell commands are inside the guard (its $SHELL is the governed shell)", async () => {
    const r = await runBinary(
      "memnox",
      ["run", "--no-milestone", "--", "bash", "-c", '"$SHELL" -c "cat ~/.ssh/id_ed25519"'],
      {
        env,
        cwd: repo.path,
      },
    );
    expect(r.stdout).not.toContain(KEY);
    expect(r.stderr).toContain("Permission denied");
    expect(r.stderr).toContain("the machine's kernel guard (Landlock");
  });

  test("doctor --wiring reports it held, and after --revert-os-guard reports none, and the read goes through", async () => {
    const line = async () => {
      const d = await runBinary("memnox", ["doctor", "--wiring", "--json"], { env, cwd: repo.path });
      return (JSON.parse(d.stdout) as { lines: { seam: string; status: string; words: string }[] }).lines.find(
        (l) => l.seam === "kernel-guard",
      );
    };
    expect(await line()).toMatchObject({ status: "ok", words: expect.stringContaining(`held by Landlock ABI ${abi}`) });
    const off = await runBinary("memnox", ["protect", "--revert-os-guard"], { env, cwd: repo.path });
    expect(off.stdout).toContain("kernel guard taken off");
    expect(await line()).toMatchObject({ status: "idle" });
    expect((await shell("cat ~/.ssh/id_ed25519")).stdout).toContain(KEY);
  });
});
