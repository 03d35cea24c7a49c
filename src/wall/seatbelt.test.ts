import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { osGuardWall, untrustedWall } from "./description.ts";
import { seatbeltProfile } from "./seatbelt.ts";

const GOLDEN = join(import.meta.dir, "..", "..", "fixtures", "wall");

const UNTRUSTED = untrustedWall({
  home: "/Users/u",
  memnoxRoot: "/Users/u/.memnox",
  memnoxKeys: ["/Users/u/.memnox/keys/ledger-ed25519.key"],
  repo: "/Users/u/src/fresh-clone",
  gitDirs: [],
  temps: ["/private/tmp", "/private/var/tmp", "/private/var/folders/xy/T"],
  agentState: ["/Users/u/.claude", "/Users/u/.claude.json"],
  secrets: [
    { path: "/Users/u/.ssh", why: "credentials", cli: "git" },
    { path: "/Users/u/.aws", why: "credentials", cli: "aws" },
    { path: "/Users/u/.zshrc", why: "a shell start-up file" },
    { path: "/Users/u/.zsh_history", why: "a shell history" },
    { path: "/Users/u/.claude/.credentials.json", why: "Claude Code sign-in" },
    { path: "/Users/u/Library/Application Support/com.vercel.cli/auth.json", why: "Vercel login", cli: "vercel" },
  ],
  kept: [
    { path: "/Users/u/.claude/settings.json", why: "the agent's memnox hook" },
    { path: "/Users/u/.claude.json", why: "the MCP servers memnox wraps" },
  ],
  socket: "/Users/u/.memnox/memnox.sock",
  proxy: { url: "http://127.0.0.1:41234", port: 41234, through: ["api.anthropic.com"] },
});

const GUARD = osGuardWall({
  home: "/Users/u",
  secrets: [
    { path: "/Users/u/.ssh", why: "credentials", cli: "git" },
    { path: "/Users/u/.config/gh", why: "credentials", cli: "gh" },
  ],
  denied: [{ path: '/Users/u/work/"quoted" dir\n(allow file-read*)/.env', why: "rule no-env" }],
  unexpressed: ["**/.env (no-env)"],
});

function golden(name: string, text: string): string {
  const file = join(GOLDEN, name);
  // GOLDEN=write refreshes a golden file after a deliberate change; the diff is then reviewed in the commit.
  if (process.env.GOLDEN === "write" || !existsSync(file)) writeFileSync(file, text);
  return readFileSync(file, "utf8");
}

describe("the seatbelt profile is the same description as the Landlock ruleset", () => {
  test("the untrusted preset's profile, as generated (golden)", () => {
    const text = seatbeltProfile(UNTRUSTED);
    expect(text).toBe(golden("untrusted.sb", text));
  });

  test("the machine's guard's profile, quotes escaped (golden)", () => {
    const text = seatbeltProfile(GUARD);
    expect(text).toBe(golden("os-guard.sb", text));
    expect(text).toContain('(subpath "/Users/u/work/\\"quoted\\" dir\\n(allow file-read*)/.env")');
    expect(text.split("\n").some((l) => l.startsWith("(allow file-read"))).toBe(false);
    expect(text).not.toContain("file-write");
    expect(text).not.toContain("network");
  });

  test("every path the description names is in the profile, under the operation it says", () => {
    const text = seatbeltProfile(UNTRUSTED);
    // Each top-level form: a line opening with "(" and the indented lines under it.
    const forms = text.split("\n").reduce<string[]>((acc, line) => {
      if (line.startsWith("(")) acc.push(line);
      else if (line.startsWith("  ") && acc.length > 0) acc[acc.length - 1] += `\n${line}`;
      return acc;
    }, []);
    const block = (op: string) => forms.filter((f) => f.startsWith(`(${op}`));
    const denyRead = block("deny file-read-data").join("\n");
    for (const u of UNTRUSTED.unreadable) expect(denyRead).toContain(JSON.stringify(u.path));
    const allowWrite = block("allow file-write*").join("\n");
    for (const w of UNTRUSTED.writable ?? []) expect(allowWrite).toContain(JSON.stringify(w.path));
    const denyWrite = block("deny file-write*").join("\n");
    for (const u of UNTRUSTED.unwritable) expect(denyWrite).toContain(JSON.stringify(u.path));
    // The agent's sign-in stays readable to it, so it can reach its model.
    expect(denyRead).not.toContain(".credentials.json");
    expect(text).toContain('(remote tcp "localhost:41234")');
    expect(text).toContain('(remote unix-socket (path-literal "/Users/u/.memnox/memnox.sock"))');
  });

  // Run for real where a macOS machine is available; everywhere else the golden text above is what is checked.
  test.skipIf(process.platform !== "darwin" || !existsSync("/usr/bin/sandbox-exec"))(
    "sandbox-exec holds it: a denied file cannot be read, temp can be written",
    () => {
      const home = process.env.TMPDIR ?? "/tmp";
      const wall = osGuardWall({
        home,
        secrets: [{ path: join(home, "memnox-seatbelt-secret"), why: "test" }],
        denied: [],
        unexpressed: [],
      });
      writeFileSync(join(home, "memnox-seatbelt-secret"), "canary\n");
      const r = Bun.spawnSync([
        "/usr/bin/sandbox-exec",
        "-p",
        seatbeltProfile(wall),
        "/bin/cat",
        join(home, "memnox-seatbelt-secret"),
      ]);
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout.toString()).not.toContain("canary");
    },
  );
});
