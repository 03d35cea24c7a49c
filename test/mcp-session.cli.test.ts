// `memnox mcp session on|off` over a fake home holding every client's real config format, and `memnox mcp trust`.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { openLedger } from "../src/ledger/store.ts";
import { run } from "../src/seams/cli/index.ts";
import { startProbation } from "../src/state/probation.ts";
import { type ClientFile, candidateFiles } from "../src/wire/clients.ts";
import { parseDocument } from "../src/wire/edit/document.ts";
import { serversIn } from "../src/wire/read.ts";
import type { SessionServerReport } from "../src/wire/session-server.ts";
import { sessionServerKeptOff } from "../src/wire/session-server.ts";
import { type FakeHome, fakeHome, fixturePath, fixtureTree, lineDiff, testContext } from "./support/index.ts";

/** The user file of each agent that gets the session tools. */
const USER_FILES = {
  "claude-code": ".claude.json",
  codex: ".codex/config.toml",
  cursor: ".cursor/mcp.json",
  "gemini-cli": ".gemini/settings.json",
  windsurf: ".codeium/windsurf/mcp_config.json",
} as const;
const PROJECT_FILES = ["project/.mcp.json", "project/.cursor/mcp.json", ".config/zed/settings.json"];

function clientsHome(): FakeHome {
  return fakeHome({
    ...fixtureTree("homes", "mcp-clients"),
    ".claude.json": { content: readFileSync(fixturePath("homes", "mcp-clients", ".claude.json")), mode: 0o600 },
  });
}

async function mcp(home: FakeHome, args: string[]) {
  const { ctx, io } = testContext(home, { args: ["mcp", ...args], cwd: home.join("project") });
  const code = await run(ctx);
  return { code, out: io.stdout(), err: io.stderr(), launcher: [...ctx.selfArgv] };
}

async function session(home: FakeHome, args: string[]) {
  const r = await mcp(home, ["session", ...args, "--json"]);
  return { ...r, report: JSON.parse(r.out) as SessionServerReport };
}

function sessionEntryIn(home: FakeHome, rel: string) {
  const loc = { home: home.path, cwd: home.join("project"), env: home.env() };
  const file = candidateFiles(loc).find((f) => f.path === home.join(rel)) as ClientFile;
  if (file.format === "yaml") throw new Error("no yaml here");
  return serversIn(file, parseDocument(file.format, readFileSync(home.join(rel), "utf8"))).find(
    (e) => e.name === "memnox-session",
  );
}

const bytes = (home: FakeHome, rel: string) => readFileSync(home.join(rel));

describe("memnox mcp session on|off", () => {
  test("on adds the server to each installed agent, in its own shape, touching nothing else", async () => {
    using home = clientsHome();
    const before = Object.fromEntries(Object.values(USER_FILES).map((f) => [f, readFileSync(home.join(f), "utf8")]));
    const untouched = PROJECT_FILES.map((f) => bytes(home, f));
    const { code, report, launcher } = await session(home, ["on"]);
    const [program = ""] = launcher;
    expect(code).toBe(0);
    expect(report.entry).toEqual({ command: program, args: [...launcher.slice(1), "mcp", "session", "serve"] });
    expect(Object.fromEntries(report.files.map((f) => [f.client, f.status]))).toEqual({
      // The fixture's ~/.claude.json already names memnox-session, started from elsewhere: it now starts this one.
      "claude-code": "updated",
      codex: "added",
      cursor: "added",
      "gemini-cli": "added",
      windsurf: "added",
    });
    for (const [client, rel] of Object.entries(USER_FILES)) {
      const entry = sessionEntryIn(home, rel);
      expect(entry, rel).toMatchObject({ transport: "stdio", command: program, envKeys: ["MEMNOX_AGENT_NAME"] });
      expect(entry?.args?.slice(-3)).toEqual(["mcp", "session", "serve"]);
      const after = readFileSync(home.join(rel), "utf8");
      expect(after).toContain(client);
      if (client === "claude-code") continue;
      // Only lines that gain a comma, or an empty map that opens up, may differ from before.
      for (const line of lineDiff(before[rel] ?? "", after).removed)
        expect(after).toContain(line.replace(/\{\}$/, "{"));
    }
    expect(PROJECT_FILES.map((f) => bytes(home, f))).toEqual(untouched);

    const again = await session(home, ["on"]);
    expect(again.report.files.every((f) => f.status === "present")).toBe(true);
  });

  test("mcp wrap leaves it alone; off restores each file byte for byte and keeps it off", async () => {
    using home = clientsHome();
    const originals = Object.values(USER_FILES).map((f) => bytes(home, f));
    await session(home, ["on"]);
    const wrap = JSON.parse((await mcp(home, ["wrap", "--json"])).out) as {
      files: { servers: { status: string; server: { name: string } }[] }[];
    };
    const self = wrap.files.flatMap((f) => f.servers).filter((s) => s.server.name === "memnox-session");
    expect(self.map((s) => s.status)).toEqual(["self", "self", "self", "self", "self"]);
    await mcp(home, ["unwrap"]);
    expect(sessionEntryIn(home, USER_FILES.codex)).toBeDefined();

    const off = await session(home, ["off"]);
    expect(off.code).toBe(0);
    // ~/.claude.json held memnox-session before `on`, so its original bytes would bring it back: removal instead.
    expect(off.report.files.map((f) => f.status)).toEqual(["removed", "restored", "restored", "restored", "restored"]);
    expect(
      Object.values(USER_FILES)
        .map((f) => bytes(home, f))
        .slice(1),
    ).toEqual(originals.slice(1));
    expect(sessionEntryIn(home, USER_FILES["claude-code"])).toBeUndefined();
    expect(sessionServerKeptOff(home.join(".memnox", "kept.json"))).toBe(true);
    expect((await mcp(home, ["session", "off"])).out).toContain("no agent has it");

    await session(home, ["on"]);
    expect(sessionServerKeptOff(home.join(".memnox", "kept.json"))).toBe(false);
  });

  test("when the agent rewrote its file since, off takes out only the entry and keeps the rest", async () => {
    using home = clientsHome();
    await session(home, ["on"]);
    const claude = home.join(USER_FILES["claude-code"]);
    const doc = JSON.parse(readFileSync(claude, "utf8"));
    writeFileSync(claude, JSON.stringify({ ...doc, numStartups: 42 }, null, 2));
    const off = await session(home, ["off", "--client", "claude-code"]);
    expect(off.report.files.map((f) => [f.client, f.status])).toEqual([["claude-code", "removed"]]);
    const after = JSON.parse(readFileSync(claude, "utf8"));
    expect(after.numStartups).toBe(42);
    expect(after.mcpServers["memnox-session"]).toBeUndefined();
    expect(sessionEntryIn(home, USER_FILES.codex)).toBeDefined();
  });

  test("an agent installed without a config file gets one; off takes the file memnox made away again", async () => {
    using home = fakeHome();
    mkdirSync(home.join(".codex"));
    const on = await session(home, ["on"]);
    expect(on.report.files.map((f) => [f.client, f.status])).toEqual([["codex", "added"]]);
    expect(on.report.notInstalled).toEqual(["claude-code", "cursor", "gemini-cli", "windsurf"]);
    expect(readFileSync(home.join(".codex", "config.toml"), "utf8")).toContain("[mcp_servers.memnox-session]");
    expect((await mcp(home, ["session", "on"])).out).toContain("not installed here: Claude Code, Cursor, Gemini CLI");
    await session(home, ["off"]);
    expect(existsSync(home.join(".codex", "config.toml"))).toBe(false);
  });

  test("a file that does not parse is left byte for byte and named; the exit code says so", async () => {
    using home = clientsHome();
    writeFileSync(home.join(USER_FILES.cursor), '{ "mcpServers": { ');
    const r = await session(home, ["on"]);
    expect(r.code).toBe(1);
    expect(r.report.files.find((f) => f.client === "cursor")).toMatchObject({ status: "unparsable" });
    expect(readFileSync(home.join(USER_FILES.cursor), "utf8")).toBe('{ "mcpServers": { ');
    expect(r.report.files.find((f) => f.client === "codex")?.status).toBe("added");
  });

  test("--dry-run writes nothing; a client without the session tools is a usage error", async () => {
    using home = clientsHome();
    const before = bytes(home, USER_FILES.windsurf);
    const r = await session(home, ["on", "--dry-run", "--client", "windsurf"]);
    expect(r.report.files).toEqual([expect.objectContaining({ client: "windsurf", status: "would-add" })]);
    expect(bytes(home, USER_FILES.windsurf)).toEqual(before);
    await expect(mcp(home, ["session", "on", "--client", "zed"])).rejects.toThrow(/Zed does not get the session tools/);
  });

  test("on and off are on the record", async () => {
    using home = clientsHome();
    await session(home, ["on", "--client", "cursor"]);
    await session(home, ["off", "--client", "cursor"]);
    const ledger = openLedger({ db: home.join(".memnox", "memnox.db") });
    const rows = ledger.select("SELECT * FROM events WHERE operation LIKE 'memnox.session-%' ORDER BY seq");
    ledger.close();
    expect(rows.map((r) => [r.kind, r.operation, r.reason?.replace(/^\S+ /, "")])).toEqual([
      ["config", "memnox.session-on", "turned memnox-session on (Cursor)"],
      ["config", "memnox.session-off", "turned memnox-session off (Cursor)"],
    ]);
  });
});

describe("memnox mcp trust", () => {
  test("ends a server's probation on the record; again, it says it already did; an unknown server is an error", async () => {
    using home = fakeHome();
    const file = home.join(".memnox", "probation.json");
    startProbation(file, "server", "fresh", Date.parse("2026-11-30T11:00:00.000Z"));
    const r = await mcp(home, ["trust", "fresh"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("fresh is off probation");
    const entry = JSON.parse(readFileSync(file, "utf8")).entries[0];
    expect(entry).toMatchObject({ kind: "server", name: "fresh", trustedAt: "2026-11-30T12:00:00.000Z" });
    expect(typeof entry.trustedBy).toBe("string");
    expect((await mcp(home, ["trust", "fresh"])).out).toContain(
      "fresh was already trusted on 2026-11-30T12:00:00.000Z",
    );
    await expect(mcp(home, ["trust", "nobody"])).rejects.toThrow(/`nobody` is not on probation/);
    const ledger = openLedger({ db: home.join(".memnox", "memnox.db") });
    const rows = ledger.select("SELECT * FROM events WHERE operation = 'memnox.trust'");
    ledger.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.reason).toContain("ended the probation of MCP server fresh");
  });
});
