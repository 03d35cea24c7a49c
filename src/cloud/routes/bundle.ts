// GET /v1/bundle (machines pull it with If-None-Match; an unchanged bundle is one 304) and PUT /v1/bundle (an admin
// publishes the same TOML or YAML the engine reads, validated here with the engine's own loader).
import { parseRuleText, validateRuleData } from "../../policy/load/index.ts";
import { actorName } from "../auth.ts";
import { type Call, HttpError, json } from "../http.ts";
import { bundleInForce } from "../store/bundle.ts";
import { audit } from "../store/people.ts";

export async function getBundle(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const b = await bundleInForce(c.db, who.workspaceId);
  const etag = `"${b.hash}"`;
  const headers = { etag, "cache-control": "no-cache" };
  if (c.req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  const pub = b.published;
  return json(
    {
      hash: b.hash,
      rules: b.rulesText === "" ? null : b.rulesText,
      conditions: b.conditionsText,
      // A machine needs only which publication it is; a person also sees the source as it was written.
      published: pub === null ? null : who.kind === "machine" ? { id: pub.id, at: pub.at, by: pub.by } : pub,
    },
    200,
    headers,
  );
}

function formatOf(c: Call): "toml" | "yaml" {
  const asked = c.url.searchParams.get("format") ?? "";
  const type = (c.req.headers.get("content-type") ?? "").toLowerCase();
  if (asked === "yaml" || /yaml/.test(type)) return "yaml";
  if (asked === "" || asked === "toml") return "toml";
  throw new HttpError(400, "bad_request", "`format` must be toml or yaml");
}

/** Validated exactly as a rule file on a machine is; the JSON form machines get is checked again before it is kept. */
export async function putBundle(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const format = formatOf(c);
  const source = await c.req.text();
  const name = `bundle.${format}`;
  const parsed = parseRuleText(name, source);
  if (!parsed.ok)
    throw new HttpError(422, "invalid_rules", "the bundle does not parse", { problems: [parsed.problem] });
  const checked = validateRuleData(name, parsed.parsed);
  if (checked.problems.length > 0)
    throw new HttpError(422, "invalid_rules", `the bundle has ${checked.problems.length} problem(s)`, {
      problems: checked.problems,
    });
  const rulesJson = `${JSON.stringify(parsed.parsed.data, null, 2)}\n`;
  const again = parseRuleText("org.policies.json", rulesJson);
  const roundTrip = again.ok ? validateRuleData("org.policies.json", again.parsed) : undefined;
  if (!roundTrip || roundTrip.problems.length > 0 || roundTrip.rules.length !== checked.rules.length)
    throw new HttpError(422, "invalid_rules", "the bundle does not survive being written as JSON");
  const by = actorName(who);
  const id = await c.db.begin(async (tx) => {
    const [row]: { id: string }[] = await tx`
      INSERT INTO bundles (workspace_id, format, source, rules_json, rule_count, published_by)
      VALUES (${who.workspaceId}, ${format}, ${source}, ${rulesJson}, ${checked.rules.length}, ${by}) RETURNING id`;
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "bundle.publish",
      subject: String(row?.id),
      detail: { rules: checked.rules.length, format },
    });
    return Number(row?.id);
  });
  const b = await bundleInForce(c.db, who.workspaceId);
  return json({ id, hash: b.hash, rules: checked.rules.map((r) => r.name) }, 201);
}
