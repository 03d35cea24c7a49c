// The block a session opens with: mode, what is never run, what asks, what proceeds and why, the project boundary,
// probation, how a person answers. Pure; paid for in the agent's context on every turn, so it is clipped and counted.
import type { Mode } from "../../core/effect.ts";
import { MODE_LINE } from "../../gate/briefing.ts";
import type { Briefing, RuleSummary } from "../../gate/types.ts";

interface BoundaryInput {
  readonly mode: Mode;
  /** Seams with their own mode: said apart, so "observe" here is not read as true of the MCP proxy too. */
  readonly seamModes?: Briefing["seamModes"];
  readonly stop?: Briefing["stop"];
  readonly rules: readonly RuleSummary[];
  readonly repository?: string;
  readonly probation?: { readonly agent: string; readonly until: string };
  /** Grants in force: what proceeds for a while though a rule would ask. */
  readonly grants?: Briefing["grants"];
  /** Whether this agent's hook can put a question to its person (Claude Code) or must refuse and hold. */
  readonly canAsk: boolean;
  /** The kernel wall the session runs inside, in one line (src/wall `wallLine`). */
  readonly wall?: string;
}

/** A rule named in the block is clipped to this many characters, `...` included. */
export const ITEM_MAX = 140;
/** The whole block stays under this; rules are counted instead of named until it fits. */
export const BLOCK_MAX = 1800;
const NAMED_STEPS = [5, 3, 1, 0] as const;

function clip(text: string, max = ITEM_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

/** `actions on targets (reason)`, as the rule itself words it. */
export function ruleItem(r: RuleSummary): string {
  const on = r.targets.length > 0 ? ` on ${r.targets.join(", ")}` : "";
  const why = r.reason ? ` (${r.reason})` : "";
  return clip(`${r.actions.join(" or ") || "*"}${on}${why}`);
}

function ruleList(label: string, rules: readonly RuleSummary[], named: number): string | undefined {
  if (rules.length === 0) return undefined;
  if (named === 0) return `${label}: ${rules.length} ${rules.length === 1 ? "rule" : "rules"}.`;
  const items = rules.slice(0, named).map(ruleItem);
  const rest = rules.length - items.length;
  if (rest > 0) items.push(`and ${rest} more`);
  return `${label}: ${items.join("; ")}.`;
}

/** What proceeds without a question, said by each allow rule's own reason (its action list is long and says less). */
function allowList(rules: readonly RuleSummary[], named: number): string | undefined {
  const reasons = [...new Set(rules.map((r) => r.reason).filter(Boolean))];
  if (reasons.length === 0 || named === 0) return undefined;
  const items = reasons.slice(0, named).map((r) => clip(r));
  const rest = reasons.length - items.length;
  if (rest > 0) items.push(`and ${rest} more`);
  return `Proceeds without asking: ${items.join("; ")}.`;
}

function answerLine(canAsk: boolean): string {
  return canAsk
    ? "When Memnox asks, the prompt puts the question to the person, who can say yes once or always; a refusal names what to use instead."
    : "When Memnox would ask, this agent cannot, so the call is refused and held for a person, who answers it from their own terminal; once they say yes, the same call goes through. A refusal names what to use instead.";
}

function stopLine(stop: NonNullable<Briefing["stop"]>): string {
  const why = stop.reason ? ` (${stop.reason})` : "";
  return `Memnox: protection on this machine is stopped until ${stop.until} by ${stop.by}${why}, so nothing is checked. "memnox start" turns it back on.`;
}

/** The block for a session start; undefined in `off`, where nothing at all is said. */
export function boundaryBlock(input: BoundaryInput): string | undefined {
  if (input.mode === "off") return undefined;
  if (input.stop) return stopLine(input.stop);
  const ruling = input.rules.filter((r) => !r.observeOnly);
  const denies = ruling.filter((r) => r.effect === "deny");
  const asks = ruling.filter((r) => r.effect === "ask");
  const allows = ruling.filter((r) => r.effect === "allow");
  const asksFirst = input.canAsk ? "asks first" : "is refused until a person approves it";
  for (const named of NAMED_STEPS) {
    // Kept-first order: the mode and how to answer survive when nothing else fits.
    const lines: [number, string | undefined][] = [
      [0, `Memnox: ${MODE_LINE[input.mode]}`],
      [1, seamModesLine(input.seamModes)],
      [1, input.wall],
      [2, ruleList("Never run here", denies, named)],
      [5, ruleList("A person is asked first", asks, named)],
      [6, allowList(allows, named)],
      [3, input.repository && `Project boundary: ${input.repository}. A write outside it ${asksFirst}.`],
      [
        4,
        input.probation &&
          `Probation: ${input.probation.agent} is new here and on probation until ${input.probation.until}, so its writes, outward and destructive actions ${input.canAsk ? "ask first" : "are refused until a person approves them"}.`,
      ],
      [4, grantLine(input.grants)],
      [1, answerLine(input.canAsk)],
    ];
    const present = lines.filter((l): l is [number, string] => Boolean(l[1]));
    const text = present.map((l) => l[1]).join("\n");
    if (text.length <= BLOCK_MAX) return text;
    if (named === 0) return keepFirst(present);
  }
  return undefined;
}

function seamModesLine(modes: BoundaryInput["seamModes"]): string | undefined {
  const named = Object.entries(modes ?? {}).filter(([seam]) => seam !== "hook");
  if (named.length === 0) return undefined;
  return `Seams with their own mode: ${named.map(([seam, mode]) => `${SEAM_WORDS[seam] ?? seam} ${mode}`).join(", ")}.`;
}

const SEAM_WORDS: Readonly<Record<string, string>> = {
  mcp: "the MCP proxy",
  shell: "the governed shell",
  interceptor: "the PATH interceptors",
  git: "the git hooks",
  egress: "the egress proxy",
};

function grantLine(grants: Briefing["grants"]): string | undefined {
  if (!grants || grants.length === 0) return undefined;
  const items = grants.map((g) => clip(`${g.scope} (${g.left} left${g.reason ? `: ${g.reason}` : ""})`));
  return `Granted for a while, so a rule's question there does not come up: ${items.join("; ")}. A refusal still holds.`;
}

/** Drop the least important lines until the block fits, keeping their order. */
function keepFirst(lines: readonly [number, string][]): string {
  let kept = [...lines];
  while (kept.length > 2 && kept.map((l) => l[1]).join("\n").length > BLOCK_MAX) {
    const worst = Math.max(...kept.map((l) => l[0]));
    kept = kept.filter((l) => l[0] !== worst);
  }
  return clip(kept.map((l) => l[1]).join("\n"), BLOCK_MAX);
}
