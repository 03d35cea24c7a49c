// `memnox claims`: what an agent said it did against what the record says it did. Deterministic: a table of claim
// shapes (words that claim a result) and, for each, the actions that would prove it; no model reads anything.
// `confirmed`: the record shows it; `unsupported`: nothing recorded shows it; `contradicted`: the record shows the
// opposite (the last test run before "all tests pass" exited non-zero, a push that was refused or failed).

import type { LedgerRow } from "../row.ts";
import { type Entry, type Final, joinEntries } from "./entries.ts";
import { clock, shortId } from "./format.ts";

type ClaimVerdict = "confirmed" | "unsupported" | "contradicted";

interface Shape {
  readonly id: string;
  /** What the claim is about, in a person's words. */
  readonly about: string;
  readonly says: RegExp;
  /** The actions whose record proves or disproves it. */
  readonly by: RegExp;
  /** Whether the claim is about a result (an exit code must say 0), not only that it was done. */
  readonly result: boolean;
}

/** The table of claim shapes; the order is the order a sentence is tried in. */
const CLAIM_SHAPES: readonly Shape[] = [
  {
    id: "tests-pass",
    about: "the tests pass",
    says: /\b(?:all (?:the |\d+ )?)?(?:unit |integration )?tests? (?:now |all )?(?:pass(?:es|ed)?|are passing|succeed(?:ed|s)?|(?:are|is) green)\b|\btest suite (?:now )?(?:passes|passed|is green)\b/i,
    by: /(?:^|\.)test(?:-[a-z0-9-]*)?$|\.run-test|^(?:pytest|py\.test|jest|vitest|mocha|ava|rspec|phpunit|tox|nox|cypress)\.run$/,
    result: true,
  },
  {
    id: "build-passes",
    about: "the build passes",
    says: /\bbuild (?:now )?(?:passes|passed|succeeds|succeeded|is green|works)\b|\bbuilds? (?:cleanly|successfully)\b|\bcompiles? (?:cleanly|without (?:any )?errors)\b/i,
    by: /\.build$|\.run-build|^(?:tsc|esbuild|webpack|rollup|vite|gcc|clang|cmake|ninja|bazel|gradle|mvn|javac|rustc|swiftc|make)\.run$/,
    result: true,
  },
  {
    id: "lint-clean",
    about: "the linter is clean",
    says: /\blint(?:er|ing)? (?:now )?(?:passes|passed|is clean|comes back clean)\b|\bno lint (?:errors|warnings)\b/i,
    by: /\.lint$|\.run-lint|^(?:eslint|biome|ruff|flake8|pylint|oxlint|stylelint|rubocop|shellcheck|golangci-lint|cargo-clippy)\.run$/,
    result: true,
  },
  {
    id: "types-check",
    about: "the type check passes",
    says: /\btype ?check(?:s|ing)? (?:now )?(?:passes|passed|is clean)\b|\bno type errors\b/i,
    by: /\.typecheck$|\.run-typecheck|^(?:tsc|mypy|pyright)\.run$/,
    result: true,
  },
  {
    id: "pushed",
    about: "it was pushed",
    says: /\b(?:i(?:'ve| have)? |successfully |changes (?:are |were )?|branch (?:is |was )?)?pushed\b/i,
    by: /^git\.push(?:-force)?$/,
    result: false,
  },
  {
    id: "committed",
    about: "it was committed",
    says: /\b(?:i(?:'ve| have)? )?committed\b|\bmade a commit\b/i,
    by: /^git\.commit$/,
    result: false,
  },
  {
    id: "pr-opened",
    about: "a pull request was opened",
    says: /\b(?:opened|created|raised) (?:a |the |an )?(?:draft )?(?:pull request|PR)\b/i,
    by: /^gh\.pr-create$|^mcp\.[^.]+\.create_pull_request$/,
    result: false,
  },
  {
    id: "deployed",
    about: "it was deployed",
    says: /\b(?:i(?:'ve| have)? |successfully )?deployed\b/i,
    by: /deploy|^railway\.up$|^fly\.deploy$|^heroku\.releases?-/,
    result: false,
  },
];

/** A sentence that says something did not happen is not a claim that it did. */
const NEGATED = /\b(?:not|n't|never|no longer|cannot|fail(?:s|ed|ing)?|unable|yet to|still (?:red|failing))\b/i;

interface Claim {
  readonly claim: string;
  readonly about: string;
  /** The sentence that makes it, masked and clipped by the caller's masker. */
  readonly words: string;
  readonly at: string | null;
  readonly verdict: ClaimVerdict;
  readonly why: string;
  /** The row that decides it: the last matching action before the claim. */
  readonly evidence: {
    readonly eventId: string;
    readonly operation: string;
    readonly final: Final | null;
    readonly exitCode: number | null;
  } | null;
}

interface ClaimsReport {
  readonly session: string;
  readonly agent: string | null;
  readonly transcript: string | null;
  readonly claims: readonly Claim[];
  readonly counts: Readonly<Record<ClaimVerdict, number>>;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/^[\s*\-•#>]+/, "").trim())
    .filter(Boolean);
}

/** Claims in what the agent said, each checked against the session's rows up to when it was said. */
export function checkClaims(
  said: readonly { at?: string; text: string }[],
  rows: readonly LedgerRow[],
  children: readonly LedgerRow[],
  mask: (text: string) => string,
): Claim[] {
  const entries = joinEntries(rows, children).filter((e) => e.row.kind === "decision");
  const out: Claim[] = [];
  for (const s of said) {
    for (const sentence of sentences(s.text)) {
      if (NEGATED.test(sentence)) continue;
      const shape = CLAIM_SHAPES.find((c) => c.says.test(sentence));
      if (!shape) continue;
      out.push(judge(shape, sentence, s.at, entries, mask));
    }
  }
  return out;
}

function judge(
  shape: Shape,
  sentence: string,
  at: string | undefined,
  entries: readonly Entry[],
  mask: (t: string) => string,
): Claim {
  // A second's slack: a transcript's clock and the hook's are the same machine's, but not the same write.
  const until = at ? new Date(Date.parse(at) + 1000).toISOString() : undefined;
  const before = entries.filter((e) => shape.by.test(e.row.operation) && (!until || e.row.occurredAt <= until));
  const last = before[before.length - 1];
  const base = { claim: shape.id, about: shape.about, words: mask(sentence).slice(0, 200), at: at ?? null };
  if (!last) {
    return { ...base, verdict: "unsupported", why: "nothing in the record does what it claims", evidence: null };
  }
  const exitCode = last.outcome?.exitCode ?? null;
  const evidence = { eventId: last.row.id, operation: last.row.operation, final: last.final ?? null, exitCode };
  const what = `${last.row.operation} (${shortId(last.row.id)}, ${clock(last.row.occurredAt)})`;
  if (last.final === "blocked")
    return { ...base, verdict: "contradicted", why: `the last ${what} was refused`, evidence };
  if (last.final === "failed")
    return {
      ...base,
      verdict: "contradicted",
      why: `the last ${what} exited ${exitCode ?? "with a failure"}`,
      evidence,
    };
  if (last.final === "held")
    return { ...base, verdict: "unsupported", why: `the last ${what} is still waiting for a person`, evidence };
  if (shape.result && exitCode === null)
    return { ...base, verdict: "unsupported", why: `the last ${what} ran, but no exit code was recorded`, evidence };
  return {
    ...base,
    verdict: "confirmed",
    why: `the last ${what} ${exitCode === null ? "ran" : `exited ${exitCode}`}`,
    evidence,
  };
}

export function claimsReport(o: {
  session: string;
  agent: string | null;
  transcript: string | null;
  claims: readonly Claim[];
}): ClaimsReport {
  const counts = { confirmed: 0, unsupported: 0, contradicted: 0 };
  for (const c of o.claims) counts[c.verdict] += 1;
  return { ...o, counts };
}

export function renderClaims(r: ClaimsReport): string[] {
  const head = `CLAIMS  ${r.agent ?? "unknown agent"} · ${r.session}${r.transcript ? `  (${r.transcript})` : ""}`;
  if (!r.transcript)
    return [head, "  no transcript of this session where its agent keeps one, so nothing it said can be read"];
  if (r.claims.length === 0) return [head, "  nothing it said claims a result the record could show"];
  return [
    head,
    ...r.claims.map((c) => `  ${c.verdict.padEnd(13)} "${c.words}" — ${c.why}`),
    `${r.counts.contradicted} contradicted, ${r.counts.unsupported} unsupported, ${r.counts.confirmed} confirmed. Reported, never refereed.`,
  ];
}
