// The agent wall's pieces with the real kernel: the description and its plan, the perl applier raising it (a secret
// unreadable, a start-up file unwritable, a link refused), what it lets through (memnox's own hooks, every command in
// observe), a stale plan handed to the binary's applier, and the gate's reading of what the wall holds.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { heldWrite } from "../src/gate/wall-held.ts";
import { type AgentWallFile, agentPlanFile, archOf, writeAgentPlan, writeAgentWall } from "../src/wall/agent.ts";
import { applierScript, findPerl, installApplier } from "../src/wall/applier.ts";
import { agentWall, DEVICES, TEMPS } from "../src/wall/description.ts";
import { kernelAbi, wallHome } from "./support/wall.ts";

const abi = await kernelAbi();
const perl = findPerl();
const arch = archOf(process.arch);

/** A home with a key, a start-up file and memnox's folder, its agent wall and plan written, the perl applier beside. */
function walled(exempt: readonly string[] = [], mode = "enforce") {
  const home = wallHome({ ".ssh/id_ed25519": "KEY-CANARY\n", ".bashrc": "# mine\n", "work/a.txt": "a\n" });
  const root = home.memnoxHome;
  mkdirSync(join(root, "app"), { recursive: true });
  mkdirSync(join(root, "guard"), { recursive: true });
  writeFileSync(join(root, "sealed.json"), JSON.stringify({ version: 1, mode }));
  // What the binary's own applier would be: here it only says it was asked, so a fallback shows.
  writeFileSync(join(root, "app", "memnox"), '#!/bin/sh\necho FALLBACK "$@"\n', { mode: 0o755 });
  const wall = agentWall({
    home: home.home,
    memnoxRoot: root,
    memnoxKeys: [],
    secrets: [{ path: join(home.home, ".ssh"), why: "credentials" }],
    unexpressed: [],
    protectedPaths: [
      { path: join(home.home, ".bashrc"), why: "start-up" },
      { path: join(home.home, ".claude"), why: "agent" },
    ],
    temps: TEMPS.filter((t) => existsSync(t)),
    system: [{ path: "/dev", why: "devices" }],
  });
  const file: AgentWallFile = {
    version: 1,
    writtenAt: "now",
    kernel: { kind: "landlock", abi },
    wall,
    claims: [],
    costs: [],
    exempt,
  };
  writeAgentWall({ guard: join(root, "guard") }, file);
  if (arch) writeAgentPlan({ guard: join(root, "guard") }, file, arch);
  const applier = join(root, "app", "memnox-wall");
  installApplier(applier, join(root, "app", "memnox"), perl);
  const run = (cmd: string) =>
    Bun.spawnSync([applier, cmd], {
      cwd: join(home.home, "work"),
      env: { PATH: process.env.PATH ?? "", HOME: home.home },
    });
  return { home, root, run, [Symbol.dispose]: () => home[Symbol.dispose]() };
}

const out = (r: { stdout: Buffer; stderr: Buffer }) => r.stdout.toString() + r.stderr.toString();

describe.skipIf(abi < 2 || !perl || !arch)("the perl applier raises the plan", () => {
  test("a secret cannot be read, a start-up file cannot be written or linked, the work goes on", () => {
    using w = walled();
    const r = w.run(
      "cat ~/.ssh/id_ed25519; echo x >> ~/.bashrc; ln ~/.bashrc rc; mkdir -p ~/.claude/skills; echo ok > b.txt && cat b.txt a.txt; echo $MEMNOX_WALL",
    );
    const text = out(r);
    expect(text).not.toContain("KEY-CANARY");
    expect(text).toContain("Permission denied");
    expect(text).toContain("Invalid cross-device link");
    expect(text).toContain("ok\na\n");
    expect(text).toContain("agent-wall.json");
    expect(readFileSync(join(w.home.home, ".bashrc"), "utf8")).toBe("# mine\n");
    expect(existsSync(join(w.home.home, ".claude"))).toBe(false);
  });

  test("memnox's own hook, exactly as the settings name it, runs outside the wall; a line that only starts so does not", () => {
    using w = walled(["cat ~/.ssh/id_ed25519"]);
    expect(out(w.run("cat ~/.ssh/id_ed25519"))).toContain("KEY-CANARY");
    expect(out(w.run("cat ~/.ssh/id_ed25519 "))).not.toContain("KEY-CANARY");
  });

  test("in observe nothing is walled, as no verdict bites", () => {
    using w = walled([], "observe");
    expect(out(w.run("cat ~/.ssh/id_ed25519"))).toContain("KEY-CANARY");
  });

  test("an entry made since the plan was listed hands the command to the binary's own applier", () => {
    using w = walled();
    expect(out(w.run("true"))).toBe("");
    writeFileSync(join(w.home.home, "new-in-home"), "x");
    expect(out(w.run("true"))).toContain("FALLBACK wall agent true");
  });

  test("a plan that is not whole is never raised half: the binary's applier plans again", () => {
    using w = walled();
    const plan = agentPlanFile({ guard: join(w.root, "guard") });
    writeFileSync(plan, readFileSync(plan, "utf8").replace(/end\n$/, ""));
    expect(out(w.run("true"))).toContain("FALLBACK");
  });

  test("PERL5OPT and PERL5LIB load nothing into the applier before the wall is up", () => {
    using w = walled();
    mkdirSync(join(w.home.home, "work", "lib"), { recursive: true });
    writeFileSync(join(w.home.home, "work", "lib", "Evil.pm"), 'package Evil; print "EVIL\\n"; 1;\n');
    const applier = join(w.root, "app", "memnox-wall");
    const r = Bun.spawnSync([applier, "echo clean"], {
      cwd: join(w.home.home, "work"),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: w.home.home,
        PERL5LIB: join(w.home.home, "work", "lib"),
        PERL5OPT: "-MEvil",
      },
    });
    expect(out(r)).toBe("clean\n");
  });
});

describe("the applier script", () => {
  test("names perl by its absolute path, in taint mode, and loads no module", () => {
    const s = applierScript("/usr/bin/perl");
    expect(s.startsWith("#!/usr/bin/perl -T\n")).toBe(true);
    expect(s).not.toMatch(/^\s*(use|require)\s/m);
  });

  test("without perl the applier is the binary itself, under the name that routes to its applier", () => {
    using home = wallHome();
    const app = join(home.memnoxHome, "memnox");
    writeFileSync(app, "");
    chmodSync(app, 0o755);
    expect(installApplier(join(home.memnoxHome, "memnox-wall"), app, undefined)).toBe("binary");
  });
});

describe("what the wall holds, as the gate reads it", () => {
  test("beneath an unwritable place, or a new name in a folder above one, is held; an existing sibling is not", () => {
    using home = wallHome({ ".config/tool/x": "x", ".ssh/k": "k" });
    const h = home.home;
    const unwritable = [join(h, ".ssh"), join(h, ".config", "systemd")];
    expect(heldWrite(unwritable, join(h, ".ssh", "authorized_keys"))).toBe(true);
    expect(heldWrite(unwritable, join(h, ".config", "new-app", "settings.json"))).toBe(true);
    expect(heldWrite(unwritable, join(h, ".config", "tool", "x"))).toBe(false);
    // A name standing for any name: held only while no folder there now would take it.
    expect(heldWrite(unwritable, `${h}/.config//User/mcp.json`)).toBe(false);
    expect(heldWrite([...unwritable, join(h, ".config", "tool")], `${h}/.config//User/mcp.json`)).toBe(true);
  });

  test("the description's devices and temp stay writable beside an unwritable /dev", () => {
    const w = agentWall({
      home: "/h",
      memnoxRoot: "/h/.memnox",
      memnoxKeys: [],
      secrets: [],
      unexpressed: [],
      protectedPaths: [],
      temps: ["/tmp", "/dev/shm"],
      system: [{ path: "/dev", why: "devices" }],
    });
    expect(w.writable?.map((x) => x.path)).toEqual(["/", "/tmp", "/dev/shm"]);
    expect(w.devices).toEqual(DEVICES);
    expect(w.unwritable.map((u) => u.path)).toEqual(["/h/.memnox", "/dev"]);
  });
});
