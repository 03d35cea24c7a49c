// The daemon where no service manager answers (a container, a machine with no systemd user session; the preload's
// stand-ins answer as one does): `daemon --install` says it could not and exits 1; `daemon --background` starts
// one with a pid file that answers; status and `doctor --wiring` say when none runs after setup; the first agent
// hook after setup starts one without waiting for it; `daemon --uninstall` stops it; a daemon whose home is
// deleted ends by itself.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pingDaemon } from "../src/gate/remote/client.ts";
import { run } from "../src/seams/cli/index.ts";
import { alive } from "../src/wire/daemon-background.ts";
import { fakeHome, runSource, testContext } from "./support/index.ts";
import { waitFor } from "./support/machine.ts";

describe("a daemon without a service manager", () => {
  test("--install fails with exit 1 and names --background; --background runs one; --uninstall stops it", async () => {
    using home = fakeHome();
    const cli = async (args: string[]) => {
      const { ctx, io } = testContext(home, { args });
      // The daemon it starts runs from source, whose version this must match to be taken for the same memnox.
      const code = await run({ ...ctx, version: "0.0.0-source" });
      return { code, out: io.stdout() };
    };
    const install = await cli(["daemon", "--install"]);
    expect(install.code).toBe(1);
    expect(install.out).toContain("memnox daemon --background");
    const bg = await cli(["daemon", "--background", "--json"]);
    expect(bg.code).toBe(0);
    const pid = Number(readFileSync(join(home.memnoxHome, "daemon.pid"), "utf8"));
    expect(JSON.parse(bg.out)).toMatchObject({ status: "started", pid });
    expect((await pingDaemon(join(home.memnoxHome, "memnox.sock")))?.pid).toBe(pid);
    expect(JSON.parse((await cli(["daemon", "--background", "--json"])).out)).toMatchObject({ status: "running", pid });
    expect((await cli(["daemon", "--uninstall"])).code).toBe(0);
    expect(alive(pid)).toBe(false);
    expect(existsSync(join(home.memnoxHome, "daemon.pid"))).toBe(false);
  }, 60_000);

  test("after setup with none running, status and doctor --wiring say so; the first hook starts one", async () => {
    using home = fakeHome();
    writeFileSync(join(home.memnoxHome, "kept.json"), JSON.stringify({ version: 1, setupAt: "2026-11-30T12:00:00Z" }));
    const said = async (args: string[]) => {
      const { ctx, io } = testContext(home, { args });
      await run(ctx);
      return io.stdout();
    };
    expect(await said(["status"])).toContain("memnox daemon --background");
    const wiring = JSON.parse(await said(["doctor", "--wiring", "--json"])) as {
      lines: { seam: string; status: string; fix?: string }[];
    };
    expect(wiring.lines.find((l) => l.seam === "daemon")).toMatchObject({
      status: "warn",
      fix: "memnox daemon --background",
    });

    const payload = JSON.stringify({
      session_id: "s1",
      transcript_path: "",
      cwd: home.home,
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(home.home, "notes.txt") },
    });
    const hook = await runSource("memnox", ["hook", "claude-code", "PreToolUse"], {
      env: home.env(),
      stdin: payload,
      cwd: home.home,
    });
    expect(hook.code).toBe(0);
    const sock = join(home.memnoxHome, "memnox.sock");
    await waitFor("the daemon the hook started", async () => (await pingDaemon(sock)) !== undefined, 30_000);
    const pid = Number(readFileSync(join(home.memnoxHome, "daemon.pid"), "utf8"));
    expect(alive(pid)).toBe(true);
    // Its home deleted, the daemon has nobody to answer: it ends by itself.
    rmSync(sock, { force: true });
    await waitFor("the daemon to end", () => !alive(pid), 45_000);
  }, 120_000);
});
