// A system's history, exported to a file, read back as the deliveries its live webhooks would have sent: a Slack
// workspace export's messages become Events API `message` callbacks, a GitHub REST listing's issues and pull requests
// become the `opened`, `closed` and merged deliveries GitHub sends. Nothing here decides anything: the one normalizer
// (normalize.ts) reads each delivery, so a swept message keeps the dedup key, stream and taint its live twin gets.
// A file this cannot read entirely is refused entirely: every part is checked before anything is handed on.
import { isRecord } from "../../core/record.ts";
import { type UnzipLimits, unzip } from "../../io/unzip.ts";

/** One delivery as the system would have sent it live, and where in the file it came from (for the answer). */
export interface SweptDelivery {
  readonly from: string;
  readonly data: unknown;
}

export type Read =
  | { readonly ok: true; readonly items: number; readonly deliveries: readonly SweptDelivery[] }
  | { readonly ok: false; readonly why: string };

/** How much of an export one sweep reads: beyond it the export is refused, never read in part. */
export const SWEEP_LIMITS = {
  zip: { entries: 20_000, entryBytes: 16 * 1024 * 1024, totalBytes: 64 * 1024 * 1024 } satisfies UnzipLimits,
  items: 50_000,
} as const;

/** The kinds of export a source can be swept from. */
export const SWEEPABLE: Readonly<Record<string, string>> = {
  slack: "the workspace export's ZIP (Settings → Import/Export data): channels.json, users.json, a folder per channel",
  github: "a JSON array of issues and pull requests (and their comments) as GitHub's REST API lists them",
};

type Obj = Readonly<Record<string, unknown>>;
const fail = (why: string): Read => ({ ok: false, why });

function parse(bytes: Uint8Array, name: string): { ok: true; value: unknown } | { ok: false; why: string } {
  try {
    return { ok: true, value: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) };
  } catch (e) {
    return { ok: false, why: `\`${name}\` is not JSON: ${(e as Error).message}` };
  }
}

export function readExport(sourceType: string, bytes: Uint8Array): Read {
  if (sourceType === "slack") return readSlack(bytes);
  if (sourceType === "github") return readGithub(bytes);
  return fail(`memnox reads no export of ${sourceType}`);
}

/** The conversation lists and the folders named after them: public channels and private ones by name, DMs by id. */
const LISTS = [
  ["channels.json", "name"],
  ["groups.json", "name"],
  ["mpims.json", "name"],
  ["dms.json", "id"],
] as const;

/**
 * A Slack export: each `<folder>/<YYYY-MM-DD>.json` an array of messages. The folder is named for the channel, and the
 * lists map that name to the channel's id, which is what a live event names. The workspace is the team most of
 * `users.json` belongs to: a live callback names it as `team_id`, so a guest from a shared channel's other team is
 * told apart exactly as live.
 */
function readSlack(bytes: Uint8Array): Read {
  const z = unzip(bytes, SWEEP_LIMITS.zip);
  if (!z.ok) return fail(`the Slack export could not be read: ${z.why}`);
  const anchor = [...z.files.keys()].find((n) => /(^|\/)(channels|users|org_users)\.json$/.test(n));
  if (anchor === undefined)
    return fail("this is not a Slack workspace export: it holds no channels.json or users.json");
  const root = anchor.slice(0, anchor.lastIndexOf("/") + 1);
  const ids = new Map<string, string>();
  for (const [file, by] of LISTS) {
    const bytes = z.files.get(`${root}${file}`);
    if (!bytes) continue;
    const list = parse(bytes, file);
    if (!list.ok) return fail(list.why);
    if (!Array.isArray(list.value)) return fail(`\`${file}\` is not a list of conversations`);
    for (const c of list.value) {
      const id = isRecord(c) ? c.id : undefined;
      const key = isRecord(c) ? c[by] : undefined;
      if (typeof id !== "string" || typeof key !== "string")
        return fail(`\`${file}\` holds a conversation with no ${by}`);
      ids.set(key, id);
    }
  }
  const usersFile = z.files.get(`${root}users.json`) ?? z.files.get(`${root}org_users.json`);
  const teams = new Map<string, number>();
  if (usersFile) {
    const users = parse(usersFile, "users.json");
    if (!users.ok) return fail(users.why);
    if (!Array.isArray(users.value)) return fail("`users.json` is not a list of members");
    for (const u of users.value)
      if (isRecord(u) && typeof u.team_id === "string") teams.set(u.team_id, (teams.get(u.team_id) ?? 0) + 1);
  }
  const team = [...teams].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
  const deliveries: SweptDelivery[] = [];
  let items = 0;
  for (const [name, data] of [...z.files].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (!name.startsWith(root)) continue;
    const m = /^([^/]+)\/(\d{4}-\d{2}-\d{2})\.json$/.exec(name.slice(root.length));
    if (!m?.[1]) continue;
    const channel = ids.get(m[1]);
    if (channel === undefined)
      return fail(`the folder \`${m[1]}\` is in none of channels.json, groups.json, mpims.json or dms.json`);
    const day = parse(data, name);
    if (!day.ok) return fail(day.why);
    if (!Array.isArray(day.value)) return fail(`\`${name}\` is not a list of messages`);
    for (const [i, msg] of day.value.entries()) {
      if (!isRecord(msg)) return fail(`\`${name}\` message ${i + 1} is not an object`);
      if (++items > SWEEP_LIMITS.items) return fail(`the export holds more than ${SWEEP_LIMITS.items} items`);
      // The Events API's envelope around the same message, in the channel the folder stands for.
      deliveries.push({
        from: `${m[1]}/${m[2]}`,
        data: { type: "event_callback", ...(team ? { team_id: team } : {}), event: { ...msg, channel } },
      });
    }
  }
  if (items === 0) return fail("the Slack export holds no channel folder of messages");
  return { ok: true, items, deliveries };
}

/** The repository an item of GitHub's REST API belongs to, by the fields it carries. */
function repositoryOf(item: Obj): string | undefined {
  const own = isRecord(item.repository) ? item.repository.full_name : undefined;
  if (typeof own === "string") return own;
  const base = isRecord(item.base) && isRecord(item.base.repo) ? item.base.repo.full_name : undefined;
  if (typeof base === "string") return base;
  for (const f of ["repository_url", "issue_url", "pull_request_url"]) {
    const m = typeof item[f] === "string" ? /\/repos\/([^/]+\/[^/]+?)(?:\/|$)/.exec(item[f] as string) : null;
    if (m?.[1]) return m[1];
  }
  const m = typeof item.html_url === "string" ? /^https:\/\/[^/]+\/([^/]+\/[^/]+)\//.exec(item.html_url) : null;
  return m?.[1];
}

/**
 * GitHub's REST listing: an issue was opened (and maybe closed); a pull request was opened (and maybe merged or
 * closed), whether it came from `/pulls` or from `/issues` (where its merge time sits under `pull_request`); a
 * comment was created. Each becomes the webhook delivery that said so.
 */
function readGithub(bytes: Uint8Array): Read {
  const parsed = parse(bytes, "the GitHub export");
  if (!parsed.ok) return fail(parsed.why);
  const list = parsed.value;
  if (!Array.isArray(list)) return fail("the GitHub export is not a JSON array of issues and pull requests");
  if (list.length > SWEEP_LIMITS.items) return fail(`the export holds more than ${SWEEP_LIMITS.items} items`);
  if (list.length === 0) return fail("the GitHub export is an empty array");
  const deliveries: SweptDelivery[] = [];
  for (const [i, item] of list.entries()) {
    const at = `item ${i + 1}`;
    if (!isRecord(item)) return fail(`${at} is not an object`);
    const full = repositoryOf(item);
    if (full === undefined) return fail(`${at} names no repository (repository_url, base.repo or html_url)`);
    const repository = { full_name: full };
    const from = typeof item.html_url === "string" ? item.html_url : at;
    const issueView = isRecord(item.pull_request) ? item.pull_request : undefined;
    const isPull = issueView !== undefined || "merged_at" in item || (isRecord(item.head) && isRecord(item.base));
    if (typeof item.number === "number" && typeof item.title === "string") {
      const noun = isPull ? "pull_request" : "issue";
      const mergedAt = issueView ? issueView.merged_at : item.merged_at;
      const subject = isPull ? { ...item, merged: typeof mergedAt === "string", merged_at: mergedAt ?? null } : item;
      deliveries.push({ from, data: { action: "opened", [noun]: subject, repository } });
      if (item.state === "closed") deliveries.push({ from, data: { action: "closed", [noun]: subject, repository } });
    } else if (typeof item.body === "string" && ("issue_url" in item || "pull_request_url" in item)) {
      deliveries.push({ from, data: { action: "created", comment: item, repository } });
    } else return fail(`${at} is not an issue, a pull request or a comment as GitHub's REST API returns them`);
  }
  return { ok: true, items: list.length, deliveries };
}
