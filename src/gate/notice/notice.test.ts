// The notice layer's tables and its gather step, pure: what is a first, what is taken, when warm-up excuses a first.
import { describe, expect, test } from "bun:test";
import type { Action } from "../../core/action.ts";
import type { NoticeHistory } from "../../ledger/notices.ts";
import { noticeFindings } from "./findings.ts";
import { gatherNotice, type NoticeAsk } from "./gather.ts";
import { noveltiesOf, sendsOutward, takesCredential } from "./table.ts";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const act = (name: string, cls: Action["class"], targets: string[] = []): Action => ({
  name,
  class: cls,
  targets,
  arguments: {},
});
const ask = (over: Partial<NoticeAsk> = {}): NoticeAsk => ({
  surface: "hook",
  agent: "claude-code",
  session: "s1",
  actions: [act("http.request", "communication", ["api.example.com"])],
  boundary: undefined,
  nowMs: NOW,
  guarded: [false],
  facts: [],
  carries: [],
  ...over,
});
const history =
  (h: Partial<NoticeHistory> = {}) =>
  () => ({
    since: new Date(NOW - 86_400_000).toISOString(),
    done: [],
    taken: [],
    ...h,
  });

describe("the tables", () => {
  test("credential files by meaning: keys, cloud logins and .env, never a public key, known_hosts or an example", () => {
    const read = (p: string) => takesCredential(act("filesystem.read", "read", [p]));
    expect(read("/home/a/.ssh/id_ed25519")).toBe(true);
    expect(read("/home/a/.ssh/deploy_key")).toBe(true);
    expect(read("/home/a/.ssh/id_ed25519.pub")).toBe(false);
    expect(read("/home/a/.ssh/known_hosts")).toBe(false);
    expect(read("/home/a/.aws/credentials")).toBe(true);
    expect(read("/repo/.env.production")).toBe(true);
    expect(read("/repo/.env.example")).toBe(false);
    expect(takesCredential(act("gh.auth-token", "read"))).toBe(true);
    expect(takesCredential(act("gh.pr-list", "read"))).toBe(false);
  });

  test("a local loop is no kind of first; an outward verb, a host and a top-level directory are", () => {
    const roots = { roots: ["/repo"], exempt: [] } as unknown as Parameters<typeof noveltiesOf>[1];
    expect(noveltiesOf(act("git.commit", "write", []), roots)).toEqual([]);
    expect(noveltiesOf(act("npm.test", "write", []), roots)).toEqual([]);
    expect(noveltiesOf(act("filesystem.write", "write", ["/repo/src/a.ts"]), roots)[0]?.words).toBe(
      "first write under src/",
    );
    // Outside the project, a place is its top directory: a fresh temp directory is not a new place each time.
    const outside = (p: string) => noveltiesOf(act("filesystem.write", "write", [p]), roots)[0]?.key;
    expect(outside("/tmp/tmp.a1b2/x.txt")).toBe("write /tmp");
    expect(outside("/home/dev/.config/app/settings.json")).toBe("write /home/dev/.config");
    expect(outside("/home/dev/.bashrc")).toBe("write /home/dev");
    expect(noveltiesOf({ ...act("gh.pr-create", "communication"), cli: "gh" }, roots)[0]?.key).toBe(
      "verb gh.pr-create",
    );
    expect(sendsOutward(act("http.loopback", "communication", ["127.0.0.1"]))).toBeUndefined();
  });
});

describe("gather", () => {
  test("a request a rule asks about takes nothing, nor does the command line around a guarded read", () => {
    const call = ask({
      actions: [act("shell.execute", "read", ["curl -H x"]), act("http.request", "read", ["api.example.com"])],
      guarded: [true, true],
    });
    expect(gatherNotice(call, { on: true, warmupDays: 0 }, history()).taken).toBeUndefined();
    const read = ask({ actions: [act("filesystem.read", "read", ["/repo/secrets/a.txt"])], guarded: [true] });
    expect(gatherNotice(read, { on: true, warmupDays: 0 }, history()).taken).toBe("read /repo/secrets/a.txt");
  });

  test("during warm-up a first is noted, not asked; an agent on probation is asked all the same", () => {
    const warming = gatherNotice(ask(), { on: true, warmupDays: 3 }, history());
    expect(warming.facts).toEqual([]);
    expect(warming.noted).toEqual(["first request to api.example.com"]);
    const probation = { kind: "probation", subject: "agent:claude-code", expiresAt: "2026-07-01T00:00:00Z" };
    const onProbation = gatherNotice(ask({ facts: [probation] }), { on: true, warmupDays: 3 }, history());
    expect(onProbation.facts.map((f) => f.kind)).toEqual(["novel"]);
  });

  test("a host done before is no first; off, nothing is read at all", () => {
    const done = gatherNotice(ask(), { on: true, warmupDays: 0 }, history({ done: ["host api.example.com"] }));
    expect(done.facts).toEqual([]);
    let read = false;
    const off = gatherNotice(ask(), { on: false, warmupDays: 0 }, () => {
      read = true;
      return history()();
    });
    expect(read).toBe(false);
    expect(off.seen).toEqual(["host api.example.com"]);
  });

  test("a send after something taken asks; carrying a credential's shape it is refused; the egress proxy is not noticed", () => {
    const taken = history({
      done: ["host api.example.com"],
      taken: [{ what: "read /h/.aws/credentials", at: new Date(NOW - 60_000).toISOString() }],
    });
    const a = ask();
    const asked = gatherNotice(a, { on: true, warmupDays: 0 }, taken);
    const action = a.actions[0] as Action;
    const input = { action, surface: a.surface, agent: a.agent, session: a.session, boundary: undefined, nowMs: NOW };
    expect(noticeFindings({ ...input, facts: asked.facts }).map((f) => [f.source, f.effect])).toEqual([
      ["chain", "ask"],
    ]);
    const carried = gatherNotice({ ...a, carries: ["github_token"] }, { on: true, warmupDays: 0 }, taken);
    expect(noticeFindings({ ...input, facts: carried.facts }).map((f) => f.effect)).toEqual(["deny"]);
    expect(gatherNotice({ ...a, surface: "egress" }, { on: true, warmupDays: 0 }, taken).facts).toEqual([]);
  });
});
