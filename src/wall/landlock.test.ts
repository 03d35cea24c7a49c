import { describe, expect, test } from "bun:test";
import { FS, NET, READ, SCOPE, WRITE, WRITE_DIR_LEVEL, WRITE_FILE_LEVEL } from "./abi.ts";
import { osGuardWall, untrustedWall, type Wall } from "./description.ts";
import { claims } from "./held.ts";
import { type Disk, landlockPlan } from "./landlock.ts";

/** A disk from a list of paths; a trailing slash marks a directory. */
function disk(paths: readonly string[]): Disk {
  const dirs = new Set(["/"]);
  const files = new Set<string>();
  for (const p of paths) {
    const clean = p.replace(/\/$/, "");
    (p.endsWith("/") ? dirs : files).add(clean);
    for (let up = clean.slice(0, clean.lastIndexOf("/")); up; up = up.slice(0, up.lastIndexOf("/"))) dirs.add(up);
  }
  const parent = (p: string) => p.slice(0, p.lastIndexOf("/")) || "/";
  return {
    list: (dir) =>
      [...dirs, ...files]
        .filter((p) => p !== "/" && parent(p) === dir)
        .sort()
        .map((path) => ({ path, dir: dirs.has(path) })),
    kind: (p) => (dirs.has(p) ? "dir" : files.has(p) ? "file" : undefined),
  };
}

const DISK = disk([
  "/usr/bin/",
  "/etc/hosts",
  "/tmp/",
  "/var/tmp/",
  "/dev/null",
  "/dev/pts/",
  "/home/u/.ssh/id_ed25519",
  "/home/u/.bashrc",
  "/home/u/.config/gh/hosts.yml",
  "/home/u/.config/git/config",
  "/home/u/.claude/settings.json",
  "/home/u/.memnox/config.toml",
  "/home/u/src/app/.git/",
  "/home/u/src/app/.env",
  "/home/u/notes.txt",
]);

const WALL = untrustedWall({
  home: "/home/u",
  memnoxRoot: "/home/u/.memnox",
  memnoxKeys: ["/home/u/.memnox/keys/ledger-ed25519.key"],
  repo: "/home/u/src/app",
  gitDirs: [],
  temps: ["/tmp", "/var/tmp"],
  agentState: ["/home/u/.claude"],
  secrets: [
    { path: "/home/u/.ssh", why: "credentials" },
    { path: "/home/u/.bashrc", why: "a shell start-up file" },
    { path: "/home/u/.config/gh", why: "credentials" },
    { path: "/home/u/src/app/.env", why: ".env file" },
  ],
  kept: [{ path: "/home/u/.claude/settings.json", why: "the agent's memnox hook" }],
  socket: "/home/u/.memnox/memnox.sock",
  proxy: { url: "http://127.0.0.1:41000", port: 41000, through: ["api.anthropic.com"] },
});

const rule = (plan: ReturnType<typeof landlockPlan>, path: string) => plan.paths.find((p) => p.path === path)?.access;

/** What the kernel grants at `path`: the union of the rules on it and on every directory above it. */
const rights = (plan: ReturnType<typeof landlockPlan>, path: string) =>
  plan.paths
    .filter((p) => path === p.path || path.startsWith(p.path === "/" ? "/" : `${p.path}/`))
    .reduce((a, p) => a | p.access, 0);

describe("the Landlock plan of a wall", () => {
  const plan = landlockPlan(WALL, 7, DISK);

  test("every directory may be listed, and the bytes of all but the unreadable may be read", () => {
    expect(rule(plan, "/")).toBe(FS.READ_DIR);
    expect(rule(plan, "/usr")).toBe(READ);
    expect(rule(plan, "/etc")).toBe(READ);
    // Walked down to each unreadable path, granting its siblings: never the path itself.
    expect(rule(plan, "/home")).toBeUndefined();
    expect(rule(plan, "/home/u/.ssh")).toBeUndefined();
    expect(rule(plan, "/home/u/.bashrc")).toBeUndefined();
    expect(rule(plan, "/home/u/.config/gh")).toBeUndefined();
    expect(rule(plan, "/home/u/.config/git")).toBe(READ);
    expect(rule(plan, "/home/u/notes.txt")).toBe(READ & (FS.READ_FILE | FS.EXECUTE));
  });

  test("the repository is read and written whole: a file made there can be read back, so its .env is the rules'", () => {
    expect(rights(plan, "/home/u/src/app/new-file") & (READ | WRITE)).toBe(READ | WRITE);
    expect(rights(plan, "/home/u/src/app/.env") & READ).toBe(READ);
  });

  test("writes go only to the repository, temp, the agent's state and the devices; never a device node made", () => {
    expect((rule(plan, "/tmp") ?? 0) & WRITE).toBe(WRITE);
    expect((rule(plan, "/home/u/.claude") ?? 0) & WRITE).toBe(WRITE);
    expect(rights(plan, "/home/u/.memnox/config.toml") & (READ | WRITE)).toBe(READ);
    expect(rights(plan, "/home/u/.memnox/keys/ledger-ed25519.key") & READ).toBe(0);
    expect(rights(plan, "/home/u/.bashrc") & (READ | WRITE)).toBe(0);
    expect(rights(plan, "/home/u/.ssh/id_ed25519") & (READ | WRITE)).toBe(0);
    expect(rule(plan, "/dev/null")).toBe(WRITE_FILE_LEVEL);
    expect(rule(plan, "/dev/pts")).toBe(WRITE_FILE_LEVEL | FS.IOCTL_DEV);
    for (const p of plan.paths) expect(p.access & (FS.MAKE_CHAR | FS.MAKE_BLOCK)).toBe(0);
    expect(plan.handledFs & (FS.MAKE_CHAR | FS.MAKE_BLOCK)).toBe(FS.MAKE_CHAR | FS.MAKE_BLOCK);
  });

  test("TCP connects only to the proxy's port, and signals stay inside", () => {
    expect(plan.handledNet).toBe(NET.CONNECT_TCP);
    expect(plan.ports).toEqual([{ port: 41000, access: NET.CONNECT_TCP }]);
    expect(plan.scoped).toBe(SCOPE.ABSTRACT_UNIX_SOCKET | SCOPE.SIGNAL);
  });

  test("a rule on a file carries file rights only (the kernel refuses directory rights on one)", () => {
    for (const p of plan.paths) {
      if (DISK.kind(p.path) === "file") expect(p.access & (WRITE_DIR_LEVEL | FS.READ_DIR)).toBe(0);
    }
  });
});

describe("carving an unwritable path out of a writable one", () => {
  // A home inside temp: temp stays writable, the home in it does not, and the directory above loses only the
  // right to make and remove its own entries (said as a cost), since that right reaches everything beneath.
  const d = disk(["/tmp/other/", "/tmp/h/.memnox/config.toml", "/tmp/h/.ssh/id", "/tmp/h/work/", "/tmp/x.txt"]);
  const wall = untrustedWall({
    home: "/tmp/h",
    memnoxRoot: "/tmp/h/.memnox",
    memnoxKeys: [],
    repo: "/tmp/h/work",
    gitDirs: [],
    temps: ["/tmp"],
    agentState: [],
    secrets: [{ path: "/tmp/h/.ssh", why: "credentials" }],
    kept: [],
    socket: "/tmp/h/.memnox/memnox.sock",
    proxy: { url: "http://127.0.0.1:1", port: 1, through: [] },
  });
  const plan = landlockPlan(wall, 7, d);

  test("the siblings keep every right, the carved path none, the parent only what reaches no carve", () => {
    expect((rule(plan, "/tmp/other") ?? 0) & WRITE).toBe(WRITE);
    expect((rule(plan, "/tmp/x.txt") ?? 0) & WRITE).toBe(WRITE_FILE_LEVEL);
    expect((rule(plan, "/tmp") ?? 0) & WRITE).toBe(0);
    expect(rule(plan, "/tmp/h")).toBeUndefined();
    expect(plan.costs.map((c) => c.path)).toEqual(["/tmp"]);
  });

  test("a repository inside the carved home is its own grant and stays writable", () => {
    expect((rule(plan, "/tmp/h/work") ?? 0) & WRITE).toBe(WRITE);
    expect(rights(plan, "/tmp/h/.memnox/config.toml") & WRITE).toBe(0);
    expect(rights(plan, "/tmp/h/new-file") & WRITE).toBe(0);
    expect(rights(plan, "/tmp/other/new-file") & WRITE).toBe(WRITE);
  });
});

describe("what an older kernel holds", () => {
  test("below ABI 4 no TCP rule is made, and the claims say the network is not held", () => {
    const plan = landlockPlan(WALL, 3, DISK);
    expect(plan.handledNet).toBe(0);
    expect(plan.ports).toEqual([]);
    expect(plan.handledFs & FS.IOCTL_DEV).toBe(0);
    expect(plan.scoped).toBe(0);
    const c = claims(WALL, { kind: "landlock", abi: 3 });
    expect(c.find((x) => x.part === "tcp")).toMatchObject({ held: false });
    expect(c.find((x) => x.part === "tcp")?.text).toContain("ABI 4 (Linux 6.7)");
    expect(c.find((x) => x.part === "scope")).toMatchObject({ held: false });
    expect(c.find((x) => x.part === "truncate")).toMatchObject({ held: true });
  });

  test("ABI 1 handles neither REFER nor TRUNCATE, and no right outside what it knows is ever asked for", () => {
    const plan = landlockPlan(WALL, 1, DISK);
    expect(plan.handledFs & (FS.REFER | FS.TRUNCATE | FS.IOCTL_DEV)).toBe(0);
    for (const p of plan.paths) expect(p.access & ~plan.handledFs).toBe(0);
  });

  test("the claims never say held for what the kernel has no rule for", () => {
    for (const abi of [1, 4, 7]) {
      const c = claims(WALL, { kind: "landlock", abi });
      for (const part of ["udp", "unix", "bind", "kept"]) expect(c.find((x) => x.part === part)?.held).toBe(false);
    }
  });
});

describe("the machine's guard", () => {
  const guard: Wall = osGuardWall({
    home: "/home/u",
    secrets: [{ path: "/home/u/.ssh", why: "credentials", cli: "git" }],
    denied: [{ path: "/home/u/.config/gh/hosts.yml", why: "rule no-gh" }],
    unexpressed: ["**/.env (no-env)"],
  });

  test("holds reads only: writes and the network are left to the rules", () => {
    const plan = landlockPlan(guard, 7, DISK);
    expect(plan.handledFs).toBe(READ);
    expect(plan.handledNet).toBe(0);
    expect(plan.scoped).toBe(0);
    expect(rule(plan, "/home/u/.ssh")).toBeUndefined();
    expect(rule(plan, "/home/u/.config/gh/hosts.yml")).toBeUndefined();
    expect(rule(plan, "/home/u/.claude")).toBe(READ);
  });
});
