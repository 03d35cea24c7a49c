// Credential shapes redacted at every write boundary; callers log the kinds, never the matched text.
const PATTERNS: ReadonlyArray<readonly [string, RegExp]> = [
  ["private_key", /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g],
  ["anthropic_key", /sk-ant-[A-Za-z0-9_-]{20,}/g],
  ["openai_key", /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g],
  ["github_token", /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g],
  ["gitlab_token", /\bglpat-[A-Za-z0-9_-]{20,}/g],
  ["slack_token", /\bxox[abeoprs]-[A-Za-z0-9-]{10,}/g],
  ["aws_key_id", /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ["jwt", /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g],
  ["db_url", /\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?):\/\/[^\s"'<>]+/g],
];

export interface Scrubbed {
  readonly text: string;
  readonly kinds: readonly string[];
}

export function scrub(text: string): Scrubbed {
  const kinds: string[] = [];
  let clean = text;
  for (const [kind, re] of PATTERNS) {
    const next = clean.replace(re, `[REDACTED:${kind}]`);
    if (next !== clean) kinds.push(kind);
    clean = next;
  }
  return { text: clean, kinds };
}
