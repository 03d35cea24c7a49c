// ~/.memnox/account.json: the workspace, this machine's id, a token scoped to this machine and the Ed25519 private key
// generated here (the public half went with the enrolment; this half never leaves). Owner only, 0600.
import { chmodSync, rmSync, statSync } from "node:fs";
import * as v from "valibot";
import { MemnoxError } from "../core/errors.ts";
import { readTextIfExists, writeFileAtomic } from "../io/files.ts";

const Named = v.strictObject({ id: v.pipe(v.string(), v.minLength(1)), name: v.string() });

const AccountSchema = v.strictObject({
  version: v.literal(1),
  url: v.pipe(v.string(), v.url()),
  org: Named,
  workspace: Named,
  machineId: v.pipe(v.string(), v.minLength(1)),
  token: v.pipe(v.string(), v.minLength(16)),
  owner: v.nullable(v.string()),
  /** 32 bytes, hex. */
  privateKey: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, "is not 32 bytes of hex")),
  publicKey: v.string(),
  enrolledAt: v.string(),
});

export type Account = v.InferOutput<typeof AccountSchema>;

/** The account, or undefined when this machine never logged in (then nothing is ever sent anywhere). */
export function readAccount(file: string): Account | undefined {
  const text = readTextIfExists(file);
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new MemnoxError(
      "config_invalid",
      `\`${file}\` is not valid JSON: ${(e as Error).message}`,
      "memnox logout, then memnox login",
    );
  }
  const r = v.safeParse(AccountSchema, raw);
  if (!r.success) {
    const issue = r.issues[0];
    const where = (issue.path ?? []).map((p) => String(p.key)).join(".");
    throw new MemnoxError(
      "config_invalid",
      `\`${file}\` is not a memnox account file (\`${where || "(top)"}\` ${issue.message})`,
      "memnox logout, then memnox login",
    );
  }
  // Anything that can read this file can act as this machine: put the mode back if something loosened it.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return r.output;
}

export function writeAccount(file: string, account: Account): void {
  writeFileAtomic(file, `${JSON.stringify(account, null, 2)}\n`, 0o600);
}

export function removeAccount(file: string): boolean {
  const had = readTextIfExists(file) !== undefined;
  rmSync(file, { force: true });
  return had;
}

export function secretKeyOf(account: Account): Uint8Array {
  return new Uint8Array(Buffer.from(account.privateKey, "hex"));
}
