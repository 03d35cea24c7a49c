// What may arrive on the socket, checked before anything acts on it: a bad line gets an error naming the field.
import * as v from "valibot";
import { ACTION_CLASSES } from "../core/action.ts";
import { SURFACES } from "../core/event.ts";
import type { DaemonRequest } from "../gate/remote/protocol.ts";

const str = v.string();
const strings = v.array(str);
const opt = <T extends v.GenericSchema>(s: T) => v.optional(s);

const Scope = v.object({
  task: opt(str),
  paths: strings,
  repos: strings,
  services: strings,
  envs: strings,
  expect: strings,
});

const WireAction = v.object({
  name: v.pipe(str, v.minLength(1)),
  class: v.picklist(ACTION_CLASSES),
  targets: strings,
  branch: opt(str),
  cli: opt(str),
  shown: opt(strings),
  cwd: opt(str),
  possible: opt(v.array(v.object({ target: str, bare: v.boolean(), could: strings }))),
  pushFlags: opt(strings),
  args: v.boolean(),
});

const Evaluate = v.object({
  method: v.literal("evaluate"),
  version: str,
  surface: v.picklist(SURFACES),
  cwd: v.pipe(str, v.startsWith("/", "must be an absolute path")),
  canAsk: v.boolean(),
  walled: opt(v.literal(true)),
  underWall: opt(v.literal(true)),
  seat: opt(v.literal("person")),
  agent: opt(str),
  session: opt(str),
  caller: v.object({
    agent: opt(str),
    session: opt(str),
    environments: opt(strings),
    role: opt(str),
    scope: opt(Scope),
  }),
  branch: opt(str),
  boundary: opt(v.object({ roots: strings, exempt: strings })),
  policies: opt(str),
  given: v.picklist(["action", "resolution"]),
  actions: v.array(WireAction),
  normalized: str,
  unknown: strings,
  parseError: opt(str),
  rawArguments: v.boolean(),
  argsDigest: str,
  argsRaw: opt(str),
  refusal: opt(str),
  carries: opt(strings),
  handedDown: opt(v.pipe(str, v.regex(/^mxr_[0-9a-f]{32}$/))),
  at: v.object({ epochMs: v.number() }),
  tz: opt(str),
});

const Hold = v.object({ method: v.literal("hold"), holdId: v.pipe(str, v.regex(/^[\w-]{1,80}$/)) });
// The ledger checks every field of a row itself and names the one that is wrong.
const Record = v.object({
  method: v.literal("record"),
  event: v.looseObject({ kind: str, surface: str, operation: str, occurredAt: str }),
  inherit: opt(v.boolean()),
  personArgv: opt(v.pipe(v.array(str), v.minLength(1), v.maxLength(10_000))),
});
const Ping = v.object({ method: v.literal("ping"), egressFor: opt(v.pipe(str, v.regex(/^[\w.-]{1,120}$/))) });

const Briefing = v.object({
  method: v.literal("briefing"),
  version: str,
  cwd: v.pipe(str, v.startsWith("/", "must be an absolute path")),
  agent: opt(str),
  policies: opt(str),
  repository: opt(str),
  at: v.number(),
});

const Request = v.variant("method", [Evaluate, Hold, Record, Ping, Briefing]);

/** The reference's evaluate: `{ action, target?, argsDigest?, cwd?, agent?, session? }`, from a caller that is no seam. */
const Direct = v.object({
  method: v.literal("evaluate"),
  action: v.pipe(str, v.regex(/^[a-z0-9*][\w.*:-]*$/i, "must be an action name like git.push")),
  target: opt(str),
  argsDigest: opt(str),
  cwd: opt(v.pipe(str, v.startsWith("/", "must be an absolute path"))),
  agent: opt(str),
  session: opt(str),
});

export type DirectEvaluate = v.InferOutput<typeof Direct>;

/** A direct evaluate (its `action` a name, not the seam's list), or undefined for anything else. */
export function parseDirect(
  raw: unknown,
): { ok: true; request: DirectEvaluate } | { ok: false; error: string } | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const o = raw as Record<string, unknown>;
  if (o.method !== "evaluate" || typeof o.action !== "string") return undefined;
  const r = v.safeParse(Direct, raw);
  if (r.success) return { ok: true, request: r.output };
  const issue = r.issues[0];
  const path = issue ? v.getDotPath(issue) : null;
  return { ok: false, error: `${path ? `\`${path}\` ` : ""}${issue?.message ?? "is not a request"}`.toLowerCase() };
}

export type Parsed =
  | { readonly ok: true; readonly request: DaemonRequest }
  | { readonly ok: false; readonly error: string };

export function parseRequest(raw: unknown): Parsed {
  const r = v.safeParse(Request, raw);
  if (r.success) return { ok: true, request: r.output as DaemonRequest };
  const issue = r.issues[0];
  const path = issue ? v.getDotPath(issue) : null;
  return { ok: false, error: `${path ? `\`${path}\` ` : ""}${issue?.message ?? "is not a request"}`.toLowerCase() };
}
