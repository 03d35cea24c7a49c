// The daemon's small parts: what crosses the socket, the log line format, files kept until they change, and
// which rules send a decision back to the seam.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { cachedFile } from "../src/daemon/cached.ts";
import { formatEntry, parseEntry } from "../src/daemon/log.ts";
import { callerFacts } from "../src/gate/caller.ts";
import { evaluateRequest } from "../src/gate/remote/evaluate.ts";
import { compile, matchesOnArguments } from "../src/policy/engine/index.ts";
import type { PolicyRule } from "../src/policy/engine/types.ts";
import { resolveCommand } from "../src/resolve/index.ts";
import { fakeHome, tempDir, testContext } from "./support/index.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

describe("what crosses the socket", () => {
  test("an evaluate request carries no argument and no credential the resolver masks", () => {
    const { ctx } = testContext(home);
    for (const command of [
      "curl -H 'Authorization: Bearer SEKRET123' https://api.example.com/a",
      "AWS_SECRET_ACCESS_KEY=SEKRET123 aws s3 ls",
      "curl -u bob:SEKRET123 https://h.example/x",
    ]) {
      const req = { surface: "hook" as const, command, cwd: home.home, canAsk: false };
      const resolution = resolveCommand(command, { cwd: home.home, home: home.home });
      const wire = evaluateRequest(req, {
        version: "0.0.0-test",
        caller: callerFacts(ctx),
        resolution,
        digest: (raw) => `digest-of-${raw.length}`,
        at: { epochMs: 0, utcOffsetMinutes: 0 },
      });
      const text = JSON.stringify(wire);
      expect(text).not.toContain("SEKRET123");
      expect(text).not.toContain('"arguments"');
      expect(wire.actions.every((a) => a.args)).toBe(true);
      expect(wire.argsDigest).toBe(`digest-of-${command.length}`);
    }
  });
});

describe("daemon.log lines", () => {
  test("one line each, read back the way they were written, the row id kept apart", () => {
    const e = { at: "2026-11-30T12:00:00.000Z", kind: "config", message: "a -> b\nsecond line", eventId: "evt_abc123" };
    const line = formatEntry(e);
    expect(line).toBe("2026-11-30T12:00:00.000Z config a -> b second line (evt_abc123)\n");
    expect(parseEntry(line.trimEnd())).toEqual({ ...e, message: "a -> b second line" });
    expect(parseEntry("2026-11-30T12:00:00.000Z started pid 4")).toEqual({
      at: "2026-11-30T12:00:00.000Z",
      kind: "started",
      message: "pid 4",
    });
  });
});

describe("a file kept until it changes", () => {
  test("re-read after an atomic replace, and a broken file throws until it is fixed", () => {
    using dir = tempDir("memnox-cached");
    const file = dir.join("state.json");
    let reads = 0;
    const read = cachedFile(file, () => {
      reads += 1;
      return JSON.parse(readFileSync(file, "utf8")) as { v: number };
    });
    const replace = (text: string) => {
      writeFileSync(`${file}.tmp`, text);
      renameSync(`${file}.tmp`, file);
    };
    replace('{"v":1}');
    expect(read().v).toBe(1);
    expect(read().v).toBe(1);
    expect(reads).toBe(1);
    replace('{"v":2}');
    expect(read().v).toBe(2);
    replace("{broken");
    expect(() => read()).toThrow();
    expect(() => read()).toThrow();
    expect(reads).toBe(3);
    replace('{"v":3}');
    expect(read().v).toBe(3);
  });
});

describe("rules that read arguments", () => {
  const rule = (name: string, match: PolicyRule["match"]): PolicyRule => ({
    name,
    match,
    decision: { effect: "deny" },
    file: "/r.toml",
    line: 1,
  });
  test("only an action some argument rule can match is sent back to the seam", () => {
    const set = compile([
      rule("plain", { actions: ["git.push-force"] }),
      rule("creds", { actions: ["http.*"], arguments: { command: ["*Authorization*"] } }),
      rule("gh", { actions: ["mcp.github.create_issue"], arguments: { owner: ["acme"] } }),
    ]);
    expect(matchesOnArguments(set, "git.push-force")).toBe(false);
    expect(matchesOnArguments(set, "http.request")).toBe(true);
    expect(matchesOnArguments(set, "mcp.github.create_issue")).toBe(true);
    expect(matchesOnArguments(set, "mcp.github.list_issues")).toBe(false);
  });
});
