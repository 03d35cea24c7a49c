// What can reach this: `?to=` a system or server (decisions.ts), `?tag=` anything carrying a tag a person confirmed,
// `?resource=` one exact resource, `?class=` a class of reach (read, write, destructive, communication). Each answer is
// every agent that effectively touched it (a refused action touched nothing), the path and the machines it runs on.
import { minimatch } from "minimatch";
import type * as v from "valibot";
import { ACTION_CLASSES } from "../../core/action.ts";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { iso } from "../iso.ts";
import { audit } from "../store/people.ts";
import type { Touch } from "../store/reach.ts";
import * as store from "../store/reach.ts";
import type { TagBody } from "./bodies.ts";
import { reachTo } from "./decisions.ts";

const TAG = /^[a-z0-9][a-z0-9._-]{0,59}$/;

function answer(asked: Record<string, string>, touches: readonly Touch[], extra: Record<string, unknown> = {}) {
  const paths = touches.map((t) => ({
    agent: t.agent,
    machine: t.machine_id,
    resource: t.resource_ref,
    via: `${t.operation} (${Number(t.n)} permitted)`,
    basis: "actions" as const,
  }));
  const agents = [...new Set(paths.map((p) => p.agent).filter((a): a is string => a !== null))].sort();
  const machines = Object.fromEntries(
    agents.map((a) => [a, [...new Set(paths.filter((p) => p.agent === a).map((p) => p.machine))].sort()]),
  );
  return json({ ...asked, ...extra, agents, machines, paths });
}

/** GET /v1/reach?to= | ?tag= | ?resource= | ?class=: exactly one question at a time. */
export async function reach(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const q = c.url.searchParams;
  const asked = (["to", "tag", "resource", "class"] as const).filter((k) => (q.get(k) ?? "").trim() !== "");
  if (asked.length !== 1)
    throw new HttpError(400, "bad_request", "ask one of `to`, `tag`, `resource` or `class`: what can reach it");
  const key = asked[0] ?? "to";
  const value = (q.get(key) ?? "").trim();
  if (key === "to") return reachTo(c, value);
  // Only what was let through counts as reach: a refused action touched nothing.
  if (key === "class") {
    if (!(ACTION_CLASSES as readonly string[]).includes(value))
      throw new HttpError(400, "bad_request", `\`class\` is one of ${ACTION_CLASSES.join(", ")}`);
    const touches = await store.touchesOfClass(c.db, who.workspaceId, value);
    return answer({ class: value }, touches);
  }
  if (key === "resource") {
    const touches = await store.touchesOf(c.db, who.workspaceId, value);
    return answer({ resource: value }, touches);
  }
  if (!TAG.test(value)) throw new HttpError(400, "bad_request", "a tag is lowercase letters, digits, . _ and -");
  const patterns = await store.tagPatterns(c.db, who.workspaceId, value);
  const touched = patterns.length === 0 ? [] : await store.touchedResources(c.db, who.workspaceId);
  const tagged = (r: string | null) =>
    r !== null && patterns.some((p) => minimatch(r, p.pattern, { dot: true, nocase: true }));
  return answer(
    { tag: value },
    touched.filter((t) => tagged(t.resource_ref)),
    { patterns: patterns.map((p) => p.pattern) },
  );
}

/** GET /v1/tags: every tag and the resources a person confirmed it on. */
export async function listTags(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const rows = await store.tags(c.db, who.workspaceId);
  return json({
    tags: rows.map((r) => ({
      tag: r.tag,
      pattern: r.pattern,
      confirmedBy: r.confirmed_by,
      confirmedAt: iso(r.confirmed_at),
    })),
  });
}

/** PUT /v1/tags/:tag {patterns}: a person confirms which resources carry the tag (globs); the set replaces the last. */
export async function setTag(c: Call, body: v.InferOutput<typeof TagBody>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const tag = c.params.tag ?? "";
  if (!TAG.test(tag)) throw new HttpError(400, "bad_request", "a tag is lowercase letters, digits, . _ and -");
  const by = actorName(who);
  await c.db.begin(async (tx) => {
    await store.replaceTag(tx, who.workspaceId, tag, body.patterns, by);
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "tag.confirm",
      subject: tag,
      detail: { patterns: body.patterns },
    });
  });
  return json({ tag, patterns: body.patterns, confirmedBy: by });
}
