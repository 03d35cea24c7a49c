// PATH interceptors: linked only for the CLIs this machine has, named when absent, placed on PATH or not, removed
// without touching anything that is not memnox's.
import { describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { verbTables } from "../src/resolve/index.ts";
import { installInterceptors, interceptorState, OWN_LINKS, removeInterceptors } from "../src/wire/interceptors.ts";
import { fakeHome, tempDir, testContext } from "./support/index.ts";

/** A directory of stand-in programs, each printing its own name. */
function programs(names: readonly string[]) {
  const dir = tempDir("memnox-path");
  for (const n of names) writeFileSync(dir.join(n), `#!/bin/sh\necho "real ${n} $*"\n`, { mode: 0o755 });
  return dir;
}

describe("interceptors", () => {
  test("only what this machine has is linked, the rest named; idempotent; and on PATH or not, said", () => {
    using home = fakeHome();
    using path = programs(["git", "gh", "rm", "curl", "flyctl"]);
    const bin = join(home.memnoxHome, "bin");
    const { ctx } = testContext(home, { env: { PATH: path.path } });
    const r = installInterceptors(ctx, verbTables());
    expect(r.installed).toEqual(["gh", "flyctl", "git", "rm", "curl"]);
    expect(r.added).toEqual(r.installed);
    expect(r.absent).toContain("aws");
    expect(r.absent).toContain("dd");
    expect(r.path).toEqual({
      onPath: false,
      ahead: false,
      behind: r.installed.map((name) => ({ name, path: path.join(name) })),
    });
    for (const n of [...r.installed, ...OWN_LINKS]) expect(existsSync(join(bin, n))).toBe(true);
    expect(existsSync(join(bin, "aws"))).toBe(false);

    const again = installInterceptors(ctx, verbTables());
    expect(again.added).toEqual([]);
    expect(again.installed).toEqual(r.installed);

    const ahead = testContext(home, { env: { PATH: `${bin}:${path.path}` } }).ctx;
    expect(interceptorState(ahead)).toMatchObject({ links: ["curl", "flyctl", "gh", "git", "rm"], broken: [] });
    expect(interceptorState(ahead).path).toEqual({ onPath: true, ahead: true, behind: [] });
    const behind = testContext(home, { env: { PATH: `${path.path}:${bin}` } }).ctx;
    expect(interceptorState(behind).path.behind.map((b) => b.name)).toEqual(["curl", "flyctl", "gh", "git", "rm"]);
  });

  test("with the stable binary in place they are symlinks to it; a CLI that went away loses its link", () => {
    using home = fakeHome();
    using path = programs(["git", "gh"]);
    const app = join(home.memnoxHome, "app", "memnox");
    mkdirSync(dirname(app), { recursive: true });
    writeFileSync(app, "#!/bin/sh\n", { mode: 0o755 });
    const { ctx } = testContext(home, { env: { PATH: path.path } });
    installInterceptors(ctx, verbTables());
    const git = join(home.memnoxHome, "bin", "git");
    expect(lstatSync(git).isSymbolicLink()).toBe(true);
    expect(readlinkSync(git)).toBe(app);
    using only = programs(["gh"]);
    const fewer = testContext(home, { env: { PATH: only.path } }).ctx;
    const r = installInterceptors(fewer, verbTables());
    expect(r.dropped).toEqual(["git"]);
    expect(existsSync(git)).toBe(false);
  });

  test("an interceptor made from source runs the real program through the gate", async () => {
    using home = fakeHome();
    using path = programs(["git"]);
    const { ctx } = testContext(home, { env: { PATH: path.path } });
    installInterceptors(ctx, verbTables());
    const run = Bun.spawn([join(home.memnoxHome, "bin", "git"), "status"], {
      env: home.env({ PATH: `${join(home.memnoxHome, "bin")}:${path.path}` }),
      cwd: home.home,
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await new Response(run.stdout).text()).toBe("real git status\n");
    expect(await run.exited).toBe(0);
  });

  test("removal takes memnox's links and leaves anything else, and the directory with it", () => {
    using home = fakeHome();
    using path = programs(["git", "rm"]);
    const { ctx } = testContext(home, { env: { PATH: path.path } });
    installInterceptors(ctx, verbTables());
    const mine = join(home.memnoxHome, "bin", "my-tool");
    writeFileSync(mine, "#!/bin/sh\necho mine\n", { mode: 0o755 });
    const r = removeInterceptors(ctx);
    expect(r.removed).toEqual([...OWN_LINKS, "git", "rm"].sort());
    expect(r.kept).toEqual(["my-tool"]);
    expect(existsSync(mine)).toBe(true);
    expect(removeInterceptors(ctx).removed).toEqual([]);
    rmSync(mine);
    expect(removeInterceptors(ctx).kept).toEqual([]);
    expect(existsSync(join(home.memnoxHome, "bin"))).toBe(false);
  });
});
