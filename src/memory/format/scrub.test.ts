import { describe, expect, test } from "bun:test";
import { scrub } from "./scrub.ts";

// Assembled at run time so no credential-shaped literal sits in the repository.
const j = (...parts: string[]) => parts.join("");

const SECRETS: [string, string][] = [
  ["openai_key", j("sk-proj-", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4")],
  ["openai_legacy_key", j("sk-", "abcdefghijklmnopqrstuvwxyz0123")],
  ["openai_legacy_key", j("sk-", "T3BlbkFJabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNop")],
  ["openai_key", j("sk-", "abcdefghij-klmnopqrstuvwxyz0123")],
  ["anthropic_key", j("sk-ant-", "api03-AbCdEfGhIjKlMnOpQrStUv")],
  ["github_token", j("ghp_", "abcdefghijklmnopqrstuvwxyz0123456789")],
  ["github_token", j("github_pat_", "11ABCDEFG0123456789_abcdefghijkl")],
  ["gitlab_token", j("glpat-", "abcdefghij0123456789")],
  ["slack_token", j("xoxb-", "1234567890-abcdefghij")],
  ["aws_key_id", j("AKIA", "IOSFODNN7EXAMPLE")],
  ["jwt", j("eyJ", "hbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U")],
  ["db_url", j("postgres://", "admin:s3cret@db.internal:5432/prod")],
  ["private_key", j("-----BEGIN RSA PRIVATE ", "KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE ", "KEY-----")],
];

describe("secret scrubbing", () => {
  test.each(SECRETS)("%s is replaced by a typed marker", (kind, secret) => {
    const r = scrub(`before ${secret} after`);
    expect(r.text).toBe(`before [REDACTED:${kind}] after`);
    expect(r.kinds).toEqual([kind]);
  });

  test("ordinary prose, hashes and slugs are left alone", () => {
    const prose = "We chose Kafka; see sha256:9f86d081884c7d65 and the ask-anthropic-sdk page, sk-short.";
    expect(scrub(prose)).toEqual({ text: prose, kinds: [] });
  });
});
