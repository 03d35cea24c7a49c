// The bundle as both ends see it: the text of org-conditions.json for a set of conditions, and the hash over the two
// files' exact text that a machine reports as applied and the control plane names as in force.

/** A fleet condition as it travels (a freeze), with its mandatory expiry and who set it. */
export interface ConditionFact {
  readonly id: string;
  readonly kind: string;
  readonly subject: string;
  readonly expiresAt: string;
  readonly by: string;
  readonly setAt: string;
  readonly reason?: string;
}

/** org-conditions.json's text: the server sends it and the machine writes it byte for byte. */
export function conditionsText(facts: readonly ConditionFact[]): string {
  return `${JSON.stringify({ version: 1, facts }, null, 2)}\n`;
}

/** Over both files' exact text, so a machine's own hash of what is on its disk shows a hand edit as a different one. */
export function bundleHash(rulesText: string, conditions: string): string {
  const text = `memnox-bundle-v1\n${rulesText.length}\n${rulesText}\n${conditions}`;
  return `sha256:${new Bun.CryptoHasher("sha256").update(text).digest("hex")}`;
}
