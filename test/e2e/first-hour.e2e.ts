// The first hour and the last, as a person meets them at a real terminal (tmux) with the compiled binary, on a
// machine with no user service manager: setup with a slow MCP server (a spinner, not a blank screen), Ctrl-C and
// Ctrl-D at its question (nothing changes), a yes that also puts the interceptors on the login PATH, the person's
// own `git reset --hard` in enforce (it runs), the daemon running without systemd, then uninstall (the daemon first,
// the binary kept) and `--purge` from the installed copy, after which the home is byte for byte what it was.
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmdirSync,
  symlinkSync,
} from "node:fs";
import { join, relative } from "node:path";
import { compiledBinary } from "../support/binary.ts";
import { fakeHome, hermeticEnv } from "../support/home.ts";
import { terminal } from "../support/tmux.ts";

/** Every entry under `root`: type, mode, and the bytes' digest or the link's target. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const st = lstatSync(p);
      const key = relative(root, p);
      const mode = (st.mode & 0o7777).toString(8);
      if (st.isSymbolicLink()) out[key] = `link ${readlinkSync(p)}`;
      else if (st.isSocket()) out[key] = "socket";
      else if (st.isDirectory()) {
        out[key] = `dir ${mode}`;
        walk(p);
      } else out[key] = `file ${mode} ${createHash("sha256").update(readFileSync(p)).digest("hex")}`;
    }
  };
  walk(root);
  return out;
}

const home = fakeHome({
  ".claude/settings.json": '{\n  "permissions": {}\n}\n',
  ".claude.json": "",
  "bin/slow-mcp": "#!/bin/sh\nexec sleep 30\n",
  "work/app/README.md": "hello\n",
  "work/app/.env": "API_TOKEN=canary-first-hour-9f2e\n",
});
afterAll(() => home[Symbol.dispose]());

const repo = home.join("work", "app");
const git = (...args: string[]) =>
  Bun.spawnSync(["git", ...args], { cwd: repo, env: hermeticEnv({ HOME: home.home }) });

describe("the first hour and the last, at a real terminal", () => {
  test("setup: a spinner while a slow server is asked, Ctrl-C and Ctrl-D change nothing, a yes wires it all", async () => {
    Bun.spawnSync(["chmod", "755", home.join("bin", "slow-mcp")]);
    await Bun.write(
      home.join(".claude.json"),
      JSON.stringify({ mcpServers: { slow: { command: home.join("bin", "slow-mcp"), args: [] } } }, null, 2),
    );
    git("init", "-q", "-b", "main");
    git("add", "README.md");
    git("commit", "-q", "-m", "first");
    const bin = home.join(".local", "bin");
    mkdirSync(bin, { recursive: true });
    symlinkSync(await compiledBinary(), join(bin, "memnox"));
    // A home memnox has never been on: no ~/.memnox either.
    rmdirSync(home.memnoxHome);
    const before = snapshot(home.home);
    // The preload's stand-ins answer for systemctl and launchctl as a machine with no user session does.
    const env = hermeticEnv({ HOME: home.home, PATH: `${bin}:${process.env.PATH ?? ""}`, TERM: "xterm" });
    using t = terminal(env, repo);

    t.type("memnox setup");
    await t.until(/asking 1 MCP server\(s\) what they offer: 0 answered, waiting on slow/);
    await t.until(/\[Y\/p\/n\] $/m);
    t.key("C-c");
    t.type("echo cancel-rc=$?");
    await t.until(/^cancel-rc=130$/m);
    expect(t.screen()).toContain("cancelled: nothing on this machine was changed");
    expect(snapshot(home.home)).toEqual(before);

    t.type("memnox setup --no-probe; echo setup-rc=$?");
    await t.until(/\[Y\/p\/n\] $/m);
    t.key("C-d");
    await t.until(/^setup-rc=1$/m);
    expect(t.screen()).toContain("no answer (end of input): nothing on this machine was changed");
    expect(snapshot(home.home)).toEqual(before);

    t.type("memnox setup --no-probe; echo wired-rc=$?");
    await t.until(/\[Y\/p\/n\] $/m);
    t.type("p");
    await t.until(/^wired-rc=0$/m, 60_000);
    const screen = t.screen();
    expect(screen).toContain("Waiting on you");
    expect(screen).toContain("Claude Code's hook");
    expect(screen).toMatch(/Active now: .*the daemon/s);
    expect(readFileSync(home.join(".profile"), "utf8")).toContain(".memnox/bin");
    expect(existsSync(join(repo, "memnox.policies.toml"))).toBe(true);

    // The person's own terminal, in enforce, with the interceptors first on their PATH (their next login's).
    expect(await t.run("memnox config set mode enforce")).toBe(0);
    expect(await t.run('export PATH="$HOME/.memnox/bin:$PATH" && type -p git')).toBe(0);
    await Bun.write(join(repo, "README.md"), "edited by me\n");
    expect(await t.run("git reset --hard -q")).toBe(0);
    expect(readFileSync(join(repo, "README.md"), "utf8")).toBe("hello\n");
    // What the person's own reset wrote in .git is theirs, and stays.
    const reset = snapshot(home.home);
    const theirs = Object.fromEntries(
      ["ORIG_HEAD", "index", "logs/HEAD"].map((f) => `work/app/.git/${f}`).map((k) => [k, reset[k] ?? ""]),
    );
    // No systemd user session here: the daemon runs in the background all the same, and status says so.
    expect(await t.run("memnox status")).toBe(0);
    expect(t.screen()).toMatch(/daemon\s+running/);
    const pid = Number(readFileSync(home.join(".memnox", "daemon.pid"), "utf8"));
    expect(pid).toBeGreaterThan(1);
    // A milestone holds the untracked .env: --purge must take it back out of the repository.
    expect(await t.run("memnox rewind --take --reason first-hour")).toBe(0);

    // Uninstall: the daemon first (it cannot put the hook back), the binary and its link kept.
    expect(await t.run("memnox uninstall")).toBe(0);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(readFileSync(home.join(".claude", "settings.json"), "utf8")).toBe('{\n  "permissions": {}\n}\n');
    expect(existsSync(home.join(".profile"))).toBe(false);
    expect(existsSync(home.join(".memnox", "app", "memnox"))).toBe(true);
    expect(await t.run("hash -r; memnox --version")).toBe(0);

    // --purge from the copy setup made: memnox is off the machine, and the home is as it was before setup.
    expect(await t.run("~/.memnox/app/memnox uninstall --purge")).toBe(0);
    expect(snapshot(home.home)).toEqual({ ...before, ...theirs });
  }, 240_000);
});
