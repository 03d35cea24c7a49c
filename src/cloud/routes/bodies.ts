// One schema per route body, held before the handler runs (input.ts): strict objects, so a field nobody named is
// refused; every text without control characters; free text through the one masker. The heartbeat's and the event
// batch's schemas live beside their routes, since the machine's half reads the same shapes.
import * as v from "valibot";
import { MODES } from "../../core/effect.ts";
import { email, ident, instant, line, lines, prose, whole } from "../input.ts";
import { LEVELS } from "../intent/clearance.ts";
import { REASONING } from "../intent/models.ts";
import { ROLES } from "../roles.ts";

const level = v.picklist(LEVELS, `is one of ${LEVELS.join(", ")}`);
const duration = ident(20);

export const DeviceRequest = v.strictObject({
  publicKey: ident(100, /^[A-Za-z0-9+/]{42,43}=?$/, "must be a base64 Ed25519 public key (32 bytes)"),
  hostname: line(255),
  version: v.optional(line(60)),
  platform: v.optional(line(60)),
  mode: v.optional(v.picklist(MODES, "must be off, observe, advise or enforce"), "observe"),
});

/** RFC 8628's token request, form-encoded or JSON; a client may name itself and the grant type. */
export const DeviceTokenRequest = v.strictObject({
  device_code: v.optional(ident(200)),
  grant_type: v.optional(ident(100)),
  client_id: v.optional(ident(200)),
});

export const MeChange = v.strictObject({ name: line(120) });

export const OrgChange = v.strictObject({
  name: v.optional(
    ident(81, /^[A-Za-z0-9][A-Za-z0-9 ._'-]{0,80}$/, "is letters, digits, spaces and . _ ' - (81 at most)"),
  ),
  about: v.optional(prose(2000)),
});

export const MemberBody = v.strictObject({
  email,
  role: v.optional(v.picklist(ROLES, "is viewer, reviewer or admin"), "viewer"),
});

export const MemberChange = v.strictObject({
  role: v.optional(v.picklist(ROLES, "is viewer, reviewer or admin")),
  status: v.optional(v.picklist(["active", "suspended"], "is active or suspended")),
});

/** A team: a name people recognise and the role putting somebody on it grants. */
export const TeamBody = v.strictObject({
  name: ident(60, /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,59}$/, "is a short name such as release or contractors"),
  role: v.picklist(ROLES, "is viewer, reviewer or admin"),
});

export const TeamMemberBody = v.strictObject({ email });

export const TokenBody = v.strictObject({ name: line(120) });

export const OperatorTokenBody = v.strictObject({
  name: line(120),
  role: v.optional(v.picklist(ROLES, "is viewer, reviewer or admin"), "viewer"),
});

export const HoldAnswer = v.strictObject({
  grant: v.boolean("must be true or false"),
  scope: v.optional(v.picklist(["once", "session"], "is once or session"), "once"),
});

export const HaltBody = v.strictObject({ reason: line(500) });

export const AgentChange = v.strictObject({
  owners: v.optional(v.pipe(v.array(email), v.maxLength(20))),
  principal: v.optional(v.nullable(line(200))),
});

export const ResolveBody = v.strictObject({
  resolution: v.optional(v.picklist(["confirmed", "false-alarm"], "is confirmed or false-alarm"), "confirmed"),
});

export const ContainBody = v.strictObject({ for: v.optional(duration) });

export const CandidateApproval = v.strictObject({
  scope: v.optional(ident(40)),
  effect: v.optional(v.picklist(["ask", "deny"], "is ask or deny: a decision only ever tightens"), "deny"),
  supersedes: v.optional(ident(80)),
  /** The terms the reviewer chose to bind machines by (the statement's own); none: recorded, binding no machine. */
  terms: v.optional(v.pipe(v.array(ident(60, /^[a-z0-9]+$/, "is a term of the statement")), v.maxLength(3))),
  /** The hash of the compiled rules the reviewer was shown: an approval publishes exactly those, or nothing. */
  rules: v.optional(ident(80, /^[0-9a-f]{16,64}$/, "is the hash of the rules you were shown")),
});

export const CandidateRejection = v.strictObject({ reason: v.optional(line(500)) });

export const DropRule = v.strictObject({ rule: ident(200) });

export const StateBody = v.strictObject({
  kind: v.optional(v.picklist(["freeze", "freeze-agent"], "is freeze or freeze-agent"), "freeze"),
  subject: ident(81, /^[A-Za-z0-9][A-Za-z0-9._*-]{0,80}$/, "is a short name such as payments or release"),
  reason: v.optional(line(500)),
  for: v.optional(duration),
  expiresAt: v.optional(instant),
});

/** Enforce everywhere: every active machine to enforce; the reason is what the audit keeps. */
export const EnforceBody = v.strictObject({ reason: v.optional(line(500)) });

export const ModeBody = v.strictObject({ mode: v.picklist(MODES, "must be off, observe, advise or enforce") });

export const SourceBody = v.strictObject({
  baseUrl: v.optional(ident(500, /^https:\/\/[^\s/]+/, "is an https URL (https://acme.slack.com)")),
  streams: v.optional(lines(200), []),
});

export const AccountLink = v.strictObject({
  sourceType: ident(40, /^[a-z][a-z0-9_-]{0,39}$/, "is lowercase letters, digits, - and _"),
  account: ident(200),
  email,
});

export const FileBody = v.strictObject({
  name: line(300),
  content: v.pipe(
    prose(2_000_000),
    v.check((s) => s.trim() !== "", "is the document's text"),
  ),
  own: v.optional(v.boolean(), false),
});

export const Reclassify = v.strictObject({ level, audiences: v.optional(lines(50), []) });

export const SensitivityBody = v.strictObject({
  rules: v.pipe(
    v.array(
      v.strictObject({
        level,
        audience: v.optional(v.nullable(ident(100))),
        terms: v.pipe(lines(500), v.minLength(1, "is empty")),
      }),
    ),
    v.maxLength(200),
  ),
});

export const ClearanceBody = v.strictObject({ clearance: v.nullable(level), audiences: v.optional(lines(50), []) });

export const AgentClearanceBody = v.strictObject({ clearance: level, audiences: v.optional(lines(50), []) });

export const ExtractionRun = v.strictObject({
  after: v.optional(whole(0, Number.MAX_SAFE_INTEGER)),
  through: v.optional(whole(0, Number.MAX_SAFE_INTEGER)),
});

/** Settings → Model: a preset, or a model and its reasoning; no other field (a key above all) is read. */
export const ModelChoice = v.union([
  v.strictObject({ preset: ident(40) }),
  v.strictObject({
    model: ident(100, /^[a-z0-9][a-z0-9.-]{0,99}$/, "is a model id such as claude-sonnet-4-5"),
    reasoning: v.picklist(REASONING, "is off, low, medium or high"),
  }),
]);

export const ExtractionChange = v.strictObject({
  readsUpTo: v.picklist(
    ["public", "internal", "confidential"],
    "is public, internal or confidential (never restricted)",
  ),
});

/** An agent's grant: namespaced verbs it handles, the person it acts for, a spend ceiling, an expiry. */
export const GrantBody = v.strictObject({
  role: v.optional(line(80)),
  actions: v.optional(
    v.pipe(
      v.array(ident(80, /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/, "is a namespaced verb such as db.migrate")),
      v.maxLength(50),
    ),
  ),
  principal: email,
  spendLimit: v.optional(v.pipe(v.number("is a number"), v.minValue(0, "is not negative"), v.maxValue(1e12))),
  currency: v.optional(ident(3, /^[A-Z]{3}$/, "is a currency code such as USD"), "USD"),
  expiresIn: v.optional(duration),
});

/** What an agent reports it spent on one action, with its own credential. */
export const SpendBody = v.strictObject({
  amount: v.pipe(v.number("is a number"), v.minValue(0, "is not negative"), v.maxValue(1e12)),
  currency: v.optional(ident(3, /^[A-Z]{3}$/, "is a currency code such as USD"), "USD"),
  action: ident(80, /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/, "is a namespaced verb such as deploy.release"),
});

/** Break-glass: why (a real sentence, not a word), what it is for, how long. */
export const BreakGlassBody = v.strictObject({
  reason: v.pipe(line(500), v.minLength(10, "says why, in a sentence")),
  actions: v.optional(
    v.pipe(
      v.array(ident(80, /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/, "is a namespaced verb such as deploy.release")),
      v.maxLength(20),
    ),
  ),
  for: v.optional(duration),
});

/** A sink: a webhook (https) or a syslog collector (udp://host:port), and which verdicts it is sent. */
export const SinkBody = v.strictObject({
  kind: v.picklist(["webhook", "syslog"], "is webhook or syslog"),
  target: ident(500),
  verdicts: v.optional(v.pipe(v.array(v.picklist(["deny", "ask"], "is deny or ask")), v.minLength(1), v.maxLength(2)), [
    "deny",
    "ask",
  ]),
});

/** A data subject: an address, or an account as a connected system names its author (a GitHub login, a Slack id). */
export const SubjectBody = v.strictObject({
  subject: v.pipe(
    ident(320, /^[^\s]+$/, "is an address or an account name"),
    v.transform((s) => s.toLowerCase()),
  ),
});

/** The resources a tag is confirmed on: globs over what actions name (`*.prod.acme.com`, `arn:aws:rds:*:prod-*`). */
export const TagBody = v.strictObject({
  patterns: v.pipe(v.array(ident(300)), v.minLength(1, "names at least one resource"), v.maxLength(100)),
});
