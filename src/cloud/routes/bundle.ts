// GET /v1/bundle: machines pull the bundle in force with If-None-Match (an unchanged bundle is one 304); a person also
// sees the source as it was written. A rule set reaches it only as a proposal a second admin approves (proposals.ts).
import { parseRuleText, validateRuleData } from "../../policy/load/index.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { bundleInForce } from "../store/bundle.ts";

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

export type RuleFormat = "toml" | "yaml" | "json";

/** One rule as the console and a proposal's changes read it. */
export interface RuleDoc {
  readonly name: string;
  readonly [key: string]: unknown;
}

interface CheckedRules {
  /** The same document as JSON: what machines write to org.policies.json. */
  readonly rulesJson: string;
  readonly rules: readonly RuleDoc[];
}

/** Validated exactly as a rule file on a machine is; the JSON form machines get is checked again before it is kept. */
export function checkRules(format: RuleFormat, source: string): CheckedRules {
  const name = `bundle.${format}`;
  const parsed = parseRuleText(name, source);
  if (!parsed.ok)
    throw new HttpError(422, "invalid_rules", "the rule set does not parse", { problems: [parsed.problem] });
  const checked = validateRuleData(name, parsed.parsed);
  if (checked.problems.length > 0)
    throw new HttpError(422, "invalid_rules", `the rule set has ${checked.problems.length} problem(s)`, {
      problems: checked.problems,
    });
  const rulesJson = `${JSON.stringify(parsed.parsed.data, null, 2)}\n`;
  const again = parseRuleText("org.policies.json", rulesJson);
  const roundTrip = again.ok ? validateRuleData("org.policies.json", again.parsed) : undefined;
  if (!roundTrip || roundTrip.problems.length > 0 || roundTrip.rules.length !== checked.rules.length)
    throw new HttpError(422, "invalid_rules", "the rule set does not survive being written as JSON");
  return { rulesJson, rules: rulesOf(rulesJson) };
}

/** The policies of a rule document's JSON text, each by name; none for an empty text. */
export function rulesOf(rulesJson: string): RuleDoc[] {
  if (rulesJson.trim() === "") return [];
  const doc = JSON.parse(rulesJson) as { policies?: unknown };
  const list = Array.isArray(doc.policies) ? doc.policies : [];
  return list.filter(
    (p): p is RuleDoc => typeof p === "object" && p !== null && typeof (p as { name?: unknown }).name === "string",
  );
}

export function formatOf(c: Call): RuleFormat {
  const asked = c.url.searchParams.get("format") ?? "";
  const type = (c.req.headers.get("content-type") ?? "").toLowerCase();
  if (asked === "yaml" || /yaml/.test(type)) return "yaml";
  if (asked === "json" || (asked === "" && /json/.test(type))) return "json";
  if (asked === "" || asked === "toml") return "toml";
  throw new HttpError(400, "bad_request", "`format` must be toml, yaml or json");
}
