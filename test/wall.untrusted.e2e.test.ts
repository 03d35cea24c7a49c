// `memnox run --untrusted` on this machine's real kernel: each harm attempted from inside the wall, each effect
// checked from outside, and the start screen's every claim compared with what the kernel actually did.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSocket } from "node:dgram";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listHolds } from "../src/state/pending.ts";
import type { Claim } from "../src/wall/held.ts";
import { startDaemon } from "./support/daemon.ts";
import { agentSeat } from "./support/governed.ts";
import { compiledBinary, gitRepo, runBinary } from "./support/index.ts";
import { FORCE_PUSH_DENIED } from "./support/rules.ts";
import { whenChanged } from "./support/wait.ts";
import { kernelAbi, wallDir, wallHome } from "./support/wall.ts";

const CANARY = "CANARY-SSH-KEY-4b1d9e";
const abi = await kernelAbi();
const BUN = process.execPath;
const CURL = Bun.which("curl");

interface Attempt {
  readonly part: string;
  readonly through: boolean;
  readonly said: string;
}

/** One line per attempt: `attempt <part> through|refused <what it printed>`; refused means the kernel said no. */
const TRY = `try() { part=$1; shift; out=$("$@" 2>&1); code=$?; said=$(printf %s "$out" | tr '\\n' ' ' | cut -c1-300)
  if printf %s "$out" | grep -qE 'Permission denied|Operation not permitted|EACCES|EPERM'; then echo "attempt $part refused $said"
  elif [ $code -eq 0 ] || [ "$part" = ioctl ]; then echo "attempt $part through $said"; else echo "attempt $part failed($code) $said"; fi; }`;

function attempts(stdout: string): Map<string, Attempt> {
  const out = new Map<string, Attempt>();
  for (const line of stdout.split("\n")) {
    const m = /^attempt (\S+) (\S+) ?(.*)$/.exec(line);
    if (m?.[1] && m[2]) out.set(m[1], { part: m[1], through: m[2] === "through", said: `${m[2]} ${m[3] ?? ""}` });
  }
  return out;
}

describe.skipIf(abi < 1)("inside memnox run --untrusted, on this kernel", () => {
  let bin = "";
  const home = wallHome({
    ".ssh/id_ed25519": `-----BEGIN OPENSSH PRIVATE KEY-----\n${CANARY}\n-----END OPENSSH PRIVATE KEY-----\n`,
    ".bashrc": "# the person's start-up file\n",
    "notes.txt": "not in any writable place\n",
  });
  const sockets = wallDir("sockets");
  const repo = gitRepo({ "README.md": "an untrusted clone\n" });
  const received: string[] = [];
  const web = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("hello-from-loopback") });
  const tcpOther = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const unixPath = join(sockets.path, "agent.sock");
  const unix = Bun.listen({ unix: unixPath, socket: { data: (_s, d) => void received.push(d.toString()) } });
  const udp = createSocket("udp4");

  beforeAll(async () => {
    bin = await compiledBinary();
    writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
    await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
    udp.on("message", (m) => received.push(m.toString()));
  });
  afterAll(() => {
    web.stop(true);
    tcpOther.stop(true);
    unix.stop(true);
    udp.close();
    repo[Symbol.dispose]();
    sockets[Symbol.dispose]();
    home[Symbol.dispose]();
  });

  function script(extra = ""): string {
    const udpPort = udp.address().port;
    return [
      TRY,
      'echo "wall-file $MEMNOX_WALL"; echo "claims $(tr -d "\\n" < "$MEMNOX_WALL")"',
      "try read cat ~/.ssh/id_ed25519",
      "try write sh -c 'echo x >> ~/.bashrc'",
      "try write-memnox sh -c 'echo x > ~/.memnox/config.toml'",
      "try write-repo sh -c 'echo in-repo > made-inside.txt && cat made-inside.txt'",
      "try write-tmp sh -c 'echo in-tmp > /tmp/memnox-wall-made-$$ && cat /tmp/memnox-wall-made-$$ && rm /tmp/memnox-wall-made-$$'",
      "try truncate truncate -s 0 ~/notes.txt",
      "try git sh -c 'echo \"#!/bin/sh\" > .git/hooks/post-checkout && rm .git/hooks/post-checkout'",
      `try tcp bash -c 'exec 3<>/dev/tcp/127.0.0.1/${tcpOther.port}'`,
      `try bind ${BUN} -e 'Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } }).stop(true)'`,
      `try udp bash -c 'echo udp-from-inside > /dev/udp/127.0.0.1/${udpPort}'`,
      `try unix ${BUN} -e 'await Bun.connect({ unix: "${unixPath}", socket: { open(s) { s.write("unix-from-inside"); s.end(); }, data() {} } })'`,
      `try scope kill -0 ${process.pid}`,
      "try ioctl stty -F /dev/null",
      extra,
    ].join("\n");
  }

  async function walled(args: readonly string[], env: Record<string, string> = {}) {
    return runBinary("memnox", ["run", "--untrusted", "--no-milestone", ...args], {
      env: home.env(env),
      cwd: repo.path,
    });
  }

  /** Every claim on the screen, with the attempt at its part: held means refused, not held means it went through. */
  function compare(stdout: string, stderr: string): { claims: Claim[]; tried: Map<string, Attempt> } {
    const json = /^claims (.*)$/m.exec(stdout)?.[1];
    expect(json, stdout).toBeDefined();
    const claims = (JSON.parse(json ?? "{}") as { claims: Claim[] }).claims;
    const tried = attempts(stdout);
    expect(claims.length).toBeGreaterThan(5);
    for (const c of claims) {
      expect(stderr).toContain(`${c.held ? "held    " : "not held"}  ${c.text}`);
      const a = tried.get(c.part);
      expect(a, `no attempt for the claimed part \`${c.part}\``).toBeDefined();
      // Held: the kernel said no (EACCES or EPERM), not some other failure. Not held: it went through.
      const seen = a?.through ? "went through" : a?.said.startsWith("refused") ? "refused" : a?.said;
      expect(`${c.part} ${seen}`).toBe(`${c.part} ${c.held ? "refused" : "went through"}`);
    }
    return { claims, tried };
  }

  test("the harms are refused by the kernel, the work goes through, and the screen says exactly that", async () => {
    const r = await walled(["--", "bash", "-c", script()]);
    expect(r.code, r.stderr).toBe(0);
    const { claims, tried } = compare(r.stdout, r.stderr);
    expect(claims.find((c) => c.part === "read")?.held).toBe(true);
    expect(tried.get("read")?.said).toContain("Permission denied");
    expect(r.stdout + r.stderr).not.toContain(CANARY);
    expect(tried.get("write")?.through).toBe(false);
    expect(readFileSync(home.join(".bashrc"), "utf8")).toBe("# the person's start-up file\n");
    expect(tried.get("write-memnox")?.through).toBe(false);
    expect(readFileSync(join(home.memnoxHome, "config.toml"), "utf8")).toBe('mode = "enforce"\n');
    expect(tried.get("write-repo")).toMatchObject({ through: true });
    expect(readFileSync(join(repo.path, "made-inside.txt"), "utf8")).toBe("in-repo\n");
    expect(tried.get("write-tmp")?.said).toContain("in-tmp");
    expect(readFileSync(home.join("notes.txt"), "utf8")).toBe("not in any writable place\n");
    if (abi >= 4) {
      expect(claims.find((c) => c.part === "tcp")?.text).toContain("the kernel matches the port, on any address");
      expect(tried.get("tcp")?.said).toContain("Permission denied");
    }
    // Not held, and said so: what went through really arrived.
    expect(received).toContain("udp-from-inside\n");
    expect(received).toContain("unix-from-inside");
    // The session's wall file is gone with the session, and so are its facts' effect.
    const file = /^wall-file (.*)$/m.exec(r.stdout)?.[1] ?? "";
    expect(file.startsWith(join(home.memnoxHome, "guard"))).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  test.skipIf(abi < 4)(
    "what an older kernel cannot hold is said not held, and the attempt indeed goes through",
    async () => {
      const r = await walled(["--", "bash", "-c", script()], { MEMNOX_WALL_ABI: "3" });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain("Landlock ABI 3");
      const { claims, tried } = compare(r.stdout, r.stderr);
      expect(claims.find((c) => c.part === "tcp")).toMatchObject({ held: false });
      expect(tried.get("tcp")?.through).toBe(true);
      expect(claims.find((c) => c.part === "scope")).toMatchObject({ held: false });
      // What ABI 3 does hold is still held.
      expect(tried.get("read")?.through).toBe(false);
      expect(tried.get("truncate")?.through).toBe(false);
    },
  );

  test.skipIf(abi < 4 || !CURL)(
    "the session's proxy is the only way out: a host it does not know asks, and `memnox approve` outside lets it through",
    async () => {
      const url = `http://127.0.0.1:${web.port}/`;
      const run = Bun.spawn(
        [
          bin,
          "run",
          "--untrusted",
          "--no-milestone",
          "--",
          "bash",
          "-c",
          `${TRY}\ntry direct curl -sS --noproxy '*' -m 5 ${url}\ncurl -sS -m 60 ${url}`,
        ],
        { env: home.env(), cwd: repo.path, stdout: "pipe", stderr: "pipe" },
      );
      const pending = join(home.memnoxHome, "pending");
      const hold = await whenChanged(pending, () =>
        listHolds(pending).find(
          (h) => h.status === "waiting" && h.action === "http.loopback" && h.target === "127.0.0.1",
        ),
      );
      expect(hold.surface).toBe("egress");
      expect(hold.reason).toContain("neither a package registry nor the agent's model provider");
      const ok = await runBinary("memnox", ["approve", hold.id], { env: home.env(), cwd: repo.path });
      expect(ok.code, ok.stderr).toBe(0);
      const [stdout, stderr, code] = await Promise.all([
        new Response(run.stdout).text(),
        new Response(run.stderr).text(),
        run.exited,
      ]);
      expect(code, stderr).toBe(0);
      // Straight to the server the kernel refuses; through the proxy, once a person said yes, it arrives.
      expect(attempts(stdout).get("direct")?.said).toMatch(/refused|failed\(7\)/);
      expect(stdout).toContain("hello-from-loopback");
    },
  );

  test("a shell command that would ask is refused inside the wall with its reason, and nothing is left held", async () => {
    const r = await walled(["--", "bash", "-c", '"$SHELL" -c "git push origin main"; echo "exit=$?"']);
    expect(r.stdout).toContain("exit=126");
    expect(r.stderr).toContain("outward and destructive actions ask first");
    expect(r.stderr).toContain("inside the kernel wall a call that would ask is refused rather than held");
    expect(listHolds(join(home.memnoxHome, "pending")).filter((h) => h.status === "waiting")).toEqual([]);
  });

  test.skipIf(abi < 4 || !CURL)(
    "with a daemon running, the seams inside answer through it and its proxy asks",
    async () => {
      await using daemon = await startDaemon(home);
      const url = `http://127.0.0.1:${web.port}/`;
      const run = Bun.spawn([bin, "run", "--untrusted", "--no-milestone", "--", "curl", "-sS", "-m", "60", url], {
        env: home.env(),
        cwd: repo.path,
        stdout: "pipe",
        stderr: "pipe",
      });
      const pending = join(home.memnoxHome, "pending");
      const hold = await whenChanged(pending, () =>
        listHolds(pending).find((h) => h.status === "waiting" && h.target === "127.0.0.1"),
      );
      await runBinary("memnox", ["approve", hold.id], { env: home.env(), cwd: repo.path });
      const [stdout, stderr, code] = await Promise.all([
        new Response(run.stdout).text(),
        new Response(run.stderr).text(),
        run.exited,
      ]);
      expect(code, stderr).toBe(0);
      expect(stdout).toBe("hello-from-loopback");
      expect(stderr).toContain("the daemon's egress proxy");
      expect(stderr).not.toContain("no daemon answers");
      expect(daemon.pid).toBeGreaterThan(0);
    },
  );

  test("a force push by git's absolute path, past every interceptor, is still refused by the pre-push hook", async () => {
    const origin = gitRepo({});
    try {
      Bun.spawnSync(["git", "init", "-q", "--bare", "origin.git"], { cwd: origin.path });
      const bare = join(origin.path, "origin.git");
      const g = (...a: string[]) => Bun.spawnSync(["git", ...a], { cwd: repo.path, env: home.env() });
      writeFileSync(join(repo.path, "memnox.policies.toml"), FORCE_PUSH_DENIED);
      g("add", "-A");
      g("commit", "-q", "-m", "first");
      g("remote", "add", "origin", bare);
      g("push", "-q", "origin", "HEAD:main");
      const pushed = Bun.spawnSync(["git", "rev-parse", "main"], { cwd: bare }).stdout.toString().trim();
      g("commit", "-q", "--amend", "-m", "rewritten");
      const hooks = await runBinary("memnox", ["protect", "--hooks"], { env: home.env(), cwd: repo.path });
      expect(hooks.code, hooks.stderr).toBe(0);
      const git = Bun.which("git") ?? "/usr/bin/git";
      // An agent's shell does it (a command memnox run is handed itself is judged, and refused, before it starts).
      using seat = agentSeat();
      const r = await walled(["--", seat.bin, "-c", `${git} push --force origin HEAD:main`]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain("a force-push can destroy work");
      expect(Bun.spawnSync(["git", "rev-parse", "main"], { cwd: bare }).stdout.toString().trim()).toBe(pushed);
      // Refused by git's own hook (no interceptor stood in the way), and recorded from inside through the run.
      expect(r.stderr).not.toContain("could not record");
      expect(r.stderr).not.toContain("could not keep rule set");
      const t = await runBinary("memnox", ["timeline", "--json", "--since", "1d"], { env: home.env(), cwd: repo.path });
      const rows = (JSON.parse(t.stdout) as { events: { surface: string; operation: string; effect: string }[] })
        .events;
      expect(rows).toContainEqual(
        expect.objectContaining({ surface: "git", operation: "git.push-force", effect: "deny" }),
      );
    } finally {
      origin[Symbol.dispose]();
    }
  });
});

describe("where no kernel can hold the wall", () => {
  test("the run does not start, and --no-guard runs it with only the seams asking, said out loud", async () => {
    using home = wallHome({ ".ssh/id_ed25519": `${CANARY}\n` });
    using repo = gitRepo({});
    const env = home.env({ MEMNOX_WALL_ABI: "0" });
    const refused = await runBinary("memnox", ["run", "--untrusted", "--", "bash", "-c", "echo started"], {
      env,
      cwd: repo.path,
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).not.toContain("started");
    expect(refused.stderr).toContain("cannot start");
    expect(refused.stderr).toContain("--no-guard");
    const loud = await runBinary(
      "memnox",
      ["run", "--untrusted", "--no-guard", "--no-milestone", "--", "bash", "-c", "echo started"],
      {
        env,
        cwd: repo.path,
      },
    );
    expect(loud.code, loud.stderr).toBe(0);
    expect(loud.stdout).toContain("started");
    expect(loud.stderr).toContain("WITHOUT the kernel wall (--no-guard");
  });

  test("a home directory is not a repository to keep an agent in", async () => {
    using home = wallHome({});
    const r = await runBinary("memnox", ["run", "--untrusted", "--", "bash", "-c", "echo started"], {
      env: home.env(),
      cwd: home.home,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("holds your home directory");
  });
});
