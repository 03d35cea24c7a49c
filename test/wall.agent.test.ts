// The agent wall's pieces with the real kernel: the description and its plan, the perl applier raising it (a secret
// unreadable, a start-up file unwritable, a link refused), what it lets through (memnox's own hooks, every command in
// observe), a stale plan handed to the binary's applier, and the gate's reading of what the wall holds.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { heldWrite } from "../src/gate/wall-held.ts";
import {
  type AgentWallFile,
  agentPlanFile,
  archOf,
  namedIn,
  placeholderFile,
  writeAgentPlan,
  writeAgentWall,
} from "../src/wall/agent.ts";
import { applierScript, findPerl, installApplier } from "../src/wall/applier.ts";
import { agentWall, DEVICES, serverSockets, sourcedPaths, TEMPS } from "../src/wall/description.ts";
import { writeMachineAgentWall } from "../src/wall/facts/agent.ts";
import { claims } from "../src/wall/held.ts";
import { agentWallLine } from "../src/wall/inside.ts";
import { makePlaceholder, namespacesWork } from "../src/wall/probe.ts";
import { testContext } from "./support/home.ts";
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

  test("a command leaves the person's terminal, so it cannot push keystrokes into it; plain bash there keeps it", () => {
    using w = walled();
    const probe = "exec 3<>/dev/tty && echo HAS-TTY || echo NO-TTY";
    const inPty = (argv: string[]) =>
      Bun.spawnSync(["python3", "-c", "import pty,sys; pty.spawn(sys.argv[1:])", ...argv], {
        cwd: join(w.home.home, "work"),
        env: { PATH: process.env.PATH ?? "", HOME: w.home.home },
      }).stdout.toString();
    expect(inPty(["bash", "-c", probe])).toContain("HAS-TTY");
    const walledOut = inPty(["bash", "-c", `${join(w.root, "app", "memnox-wall")} '${probe}'; true`]);
    expect(walledOut).toContain("NO-TTY");
    expect(walledOut).not.toContain("HAS-TTY");
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

/** The baseline's names for .env files, as the rules write them. */
const globs = [".env", ".env.!(example|sample|template)", "*.env", ".envrc"].map((glob) => ({ glob, why: "rule env" }));

/** A walled home whose wall hides the servers' sockets, tmux's folder and the runtime folder inside the home. */
function walledServers(mode = "enforce") {
  const home = wallHome({
    ".ssh/id_ed25519": "KEY-CANARY\n",
    "work/a.txt": "a\n",
    "work/web/.env": "PUBLIC_URL=/app\n",
    "work/.env": "TOKEN=ENV-CANARY\n",
    "work/.env.example": "TOKEN=\n",
    "work/sub/.env.local": "TOKEN=LOCAL-CANARY\n",
    "work/deep/a/prod.env": "TOKEN=DEEP-CANARY\n",
    "run/.keep": "",
    "tt/.keep": "",
  });
  const root = home.memnoxHome;
  // A real checkout: web/.env is tracked (public defaults, as some frameworks commit), the others are not.
  const git = (...a: string[]) =>
    Bun.spawnSync(["git", "-C", join(home.home, "work"), ...a], {
      env: {
        ...home.env(),
        GIT_AUTHOR_NAME: "p",
        GIT_AUTHOR_EMAIL: "p@x",
        GIT_COMMITTER_NAME: "p",
        GIT_COMMITTER_EMAIL: "p@x",
      },
    });
  git("init", "-q");
  git("add", "web/.env", "a.txt");
  git("commit", "-qm", "tracked");
  for (const d of ["app", "guard"]) mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, "sealed.json"), JSON.stringify({ version: 1, mode }));
  writeFileSync(join(root, "app", "memnox"), '#!/bin/sh\necho FALLBACK "$@"\n', { mode: 0o755 });
  const uid = process.getuid?.() ?? 0;
  const places = { home: home.home, uid, user: "me", runtime: join(home.home, "run"), tmuxTmp: join(home.home, "tt") };
  const wall = agentWall({
    home: home.home,
    memnoxRoot: root,
    memnoxKeys: [],
    secrets: [{ path: join(home.home, ".ssh"), why: "credentials" }],
    unexpressed: [],
    protectedPaths: [],
    temps: TEMPS.filter((t) => existsSync(t)),
    system: [{ path: "/dev", why: "devices" }],
    servers: serverSockets(places),
    names: { globs, found: namedIn(join(home.home, "work"), globs) },
  });
  const kernel = { kind: "landlock" as const, abi, namespaces: namespacesWork(perl, arch, root) };
  const file: AgentWallFile = { version: 1, writtenAt: "now", kernel, wall, claims: [], costs: [], exempt: [] };
  writeAgentWall({ guard: join(root, "guard") }, file);
  makePlaceholder(perl, arch, placeholderFile({ guard: join(root, "guard") }));
  if (arch) writeAgentPlan({ guard: join(root, "guard") }, file, arch);
  const applier = join(root, "app", "memnox-wall");
  installApplier(applier, join(root, "app", "memnox"), perl);
  const env = (extra: Record<string, string> = {}) => ({
    PATH: process.env.PATH ?? "",
    HOME: home.home,
    TMUX_TMPDIR: places.tmuxTmp,
    XDG_RUNTIME_DIR: places.runtime,
    ...extra,
  });
  const run = (cmd: string, extra: Record<string, string> = {}, cwd = join(home.home, "work")) =>
    Bun.spawnSync([applier, cmd], { cwd, env: env(extra) });
  const person = (argv: string[]) => Bun.spawnSync(argv, { cwd: home.home, env: env() });
  return { home, file, run, person, [Symbol.dispose]: () => home[Symbol.dispose]() };
}

describe.skipIf(abi < 2 || !perl || !arch || !namespacesWork(perl, arch, import.meta.dir))(
  "servers outside the wall that run what they are sent",
  () => {
    test.skipIf(!Bun.which("tmux"))(
      "the person's tmux server: a new window from inside never opens, so it never reads the key (in observe it does)",
      () => {
        for (const mode of ["observe", "enforce"]) {
          using w = walledServers(mode);
          const leak = join(w.home.home, "work", "leak.txt");
          expect(w.person(["tmux", "new-session", "-d", "-s", "person"]).exitCode).toBe(0);
          try {
            // wait-for makes the window's work finish before the command returns: no sleeping on a server.
            const r = w.run(
              `tmux new-window -d "cat ~/.ssh/id_ed25519 > ${leak}; tmux wait-for -S done" && tmux wait-for done`,
            );
            if (mode === "observe") {
              expect(readFileSync(leak, "utf8")).toBe("KEY-CANARY\n");
            } else {
              expect(r.exitCode).not.toBe(0);
              expect(existsSync(leak)).toBe(false);
              // Its own tmux is inside the wall: the key stays unreadable there too.
              w.run(`tmux -L mine new-session -d "cat ~/.ssh/id_ed25519 > ${leak}.2"; tmux -L mine kill-server`);
              expect(existsSync(`${leak}.2`) ? readFileSync(`${leak}.2`, "utf8") : "").not.toContain("KEY-CANARY");
            }
          } finally {
            w.person(["tmux", "kill-server"]);
          }
        }
      },
    );

    test("a server a variable names (DOCKER_HOST) and one on systemd's bus path: unreachable; the command's own work goes on", async () => {
      using w = walledServers();
      const leak = join(w.home.home, "work", "leak.txt");
      const server = (path: string) =>
        Bun.spawn(
          [
            "python3",
            "-c",
            "import socket,subprocess,sys\ns=socket.socket(socket.AF_UNIX)\ns.bind(sys.argv[1])\ns.listen(4)\nprint('up',flush=True)\nwhile True:\n c,_=s.accept()\n subprocess.run(c.recv(4096).decode(),shell=True)\n c.sendall(b'ran')\n c.close()",
            path,
          ],
          { stdout: "pipe", env: { PATH: process.env.PATH ?? "", HOME: w.home.home } },
        );
      const docker = join(w.home.home, "run", "d.sock");
      const bus = join(w.home.home, "run", "bus");
      const servers = [server(docker), server(bus)];
      try {
        for (const s of servers) await s.stdout.getReader().read();
        const send = (path: string) =>
          `python3 -c 'import socket;s=socket.socket(socket.AF_UNIX);s.connect("${path}");s.sendall(b"cat ~/.ssh/id_ed25519 >> ${leak}");print(s.recv(9))'`;
        const r = w.run(`${send(docker)}; ${send(bus)}; echo work > b.txt; id -u; git --version`, {
          DOCKER_HOST: `unix://${docker}`,
        });
        const text = out(r);
        expect(text).not.toContain("ran");
        expect(existsSync(leak) ? readFileSync(leak, "utf8") : "").not.toContain("KEY-CANARY");
        expect(readFileSync(join(w.home.home, "work", "b.txt"), "utf8")).toBe("work\n");
        expect(r.stdout.toString()).toContain(`${process.getuid?.() ?? 0}\ngit version`);
        expect(text).toContain("Connection refused");
        // The person, outside, still reaches both.
        const mine = Bun.spawnSync(["bash", "-c", `${send(docker)}; ${send(bus)}`], {
          env: { PATH: process.env.PATH ?? "", HOME: w.home.home },
        });
        expect(out(mine)).toContain("ran");
        expect(readFileSync(leak, "utf8")).toContain("KEY-CANARY");
      } finally {
        for (const s of servers) s.kill();
      }
    });

    test(".env files by any computed route: covered from where the command runs up to the checkout's root and beneath it; templates and the command's own files read (in observe they leak)", () => {
      const reads = [
        `python3 -c 'print(open(".e"+"nv").read())'`,
        "cat sub/.env.local",
        `node -e 'console.log(require("fs").readFileSync("deep/a/prod"+".env","utf8"))'`,
        "cat .env.example",
        "echo MINE=1 > mine.env && cat mine.env",
      ].join("; ");
      for (const mode of ["observe", "enforce"]) {
        using w = walledServers(mode);
        const r = w.run(reads);
        const text = out(r);
        expect(text).toContain("TOKEN=\n");
        expect(text).toContain("MINE=1");
        if (mode === "observe") {
          for (const c of ["ENV-CANARY", "LOCAL-CANARY", "DEEP-CANARY"]) expect(text).toContain(c);
          continue;
        }
        for (const c of ["ENV-CANARY", "LOCAL-CANARY", "DEEP-CANARY"]) expect(text).not.toContain(c);
        expect(text).toContain("No such device or address");
        // A tracked one is git's to read: left as it is, so status stays clean and a commit goes on.
        const status = w.run("cat web/.env; git status --porcelain web a.txt");
        expect(status.stdout.toString()).toBe("PUBLIC_URL=/app\n");
        // From a folder beneath the root, the root's .env is covered too; the file itself is untouched.
        const below = w.run("cat ../.env; cat .env.local", {}, join(w.home.home, "work", "sub"));
        expect(out(below)).not.toContain("CANARY");
        expect(readFileSync(join(w.home.home, "work", ".env"), "utf8")).toBe("TOKEN=ENV-CANARY\n");
      }
    });

    test("what the wall says: held where namespaces work", () => {
      using w = walledServers();
      const c = claims(w.file.wall, w.file.kernel).find((x) => x.part === "servers");
      expect(c?.held).toBe(true);
      expect(c?.text).toContain("tmux");
      const off = claims(w.file.wall, { kind: "landlock", abi, namespaces: false }).find((x) => x.part === "servers");
      expect(off?.held).toBe(false);
      // The session is told, so an agent whose program fails on a covered .env says why instead of guessing.
      const told = agentWallLine({ ...w.file, claims: claims(w.file.wall, w.file.kernel) });
      expect(told).toContain(
        '(.env, .env.!(example|sample|template), *.env, .envrc) open as "No such device or address"',
      );
      expect(told).toContain("tmux");
      expect(agentWallLine(w.file)).not.toContain("No such device");
    });
  },
);

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

describe("what a start-up file runs is start-up too", () => {
  test("sourcedPaths: literal paths, ~ and $HOME, the variables the file set before, never one still unknown", () => {
    const text = [
      '. "$HOME/.cargo/env"',
      'export NVM_DIR="$HOME/.nvm"',
      '[ -s "$NVM_DIR/nvm.sh" ] && \\. "$NVM_DIR/nvm.sh"',
      "source ~/.aliases",
      "if [ -f ~/.bash_local ]; then . ~/.bash_local; fi",
      '# . "$HOME/commented"',
      ". $UNSET_DIR/x.sh",
      "echo a . b",
    ].join("\n");
    expect(sourcedPaths(text, "/h")).toEqual(["/h/.cargo/env", "/h/.nvm/nvm.sh", "/h/.aliases", "/h/.bash_local"]);
  });

  test.skipIf(abi < 2 || !perl || !arch)(
    "the machine's wall keeps the files .bashrc sources, and npm's settings, unwritable in the kernel",
    async () => {
      using home = wallHome({
        ".bashrc":
          '. "$HOME/.cargo/env"\nexport NVM_DIR="$HOME/.nvm"\n[ -s "$NVM_DIR/nvm.sh" ] && \\. "$NVM_DIR/nvm.sh"\n',
        ".cargo/env": "# cargo's\n",
        ".nvm/nvm.sh": "# nvm's\n",
        ".npmrc": "registry=https://registry.npmjs.org/\n",
        "work/a.txt": "a\n",
      });
      const { ctx } = testContext(home);
      mkdirSync(ctx.paths.root, { recursive: true });
      writeFileSync(join(ctx.paths.root, "sealed.json"), JSON.stringify({ version: 1, mode: "enforce" }));
      // The applier is in place before the wall is planned: an entry made since would send it to the binary.
      const applier = join(ctx.paths.root, "app", "memnox-wall");
      mkdirSync(join(ctx.paths.root, "app"), { recursive: true });
      mkdirSync(ctx.paths.guard, { recursive: true });
      installApplier(applier, join(ctx.paths.root, "app", "memnox"), perl);
      const file = await writeMachineAgentWall(ctx);
      expect(file.wall.unwritable.map((u) => u.path)).toEqual(
        expect.arrayContaining([join(home.home, ".cargo/env"), join(home.home, ".nvm/nvm.sh")]),
      );
      const r = Bun.spawnSync(
        [
          applier,
          "echo evil >> ~/.cargo/env; echo evil >> ~/.nvm/nvm.sh; echo 'node-options=--require /tmp/x.js' >> ~/.npmrc; echo ok > b.txt; cat b.txt",
        ],
        { cwd: join(home.home, "work"), env: { PATH: process.env.PATH ?? "", HOME: home.home } },
      );
      expect(out(r)).toContain("Permission denied");
      expect(out(r)).toContain("ok\n");
      expect(readFileSync(join(home.home, ".cargo/env"), "utf8")).toBe("# cargo's\n");
      expect(readFileSync(join(home.home, ".nvm/nvm.sh"), "utf8")).toBe("# nvm's\n");
      expect(readFileSync(join(home.home, ".npmrc"), "utf8")).toBe("registry=https://registry.npmjs.org/\n");
    },
  );
});
