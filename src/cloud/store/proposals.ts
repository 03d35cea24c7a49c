// Rule-set proposals and the bundles their approval publishes, as stored. A proposal is read within its workspace;
// deciding one locks it for the caller's transaction.
import type { Db } from "./db.ts";

export interface Changes {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly modified: readonly string[];
}

export interface ProposalRow {
  id: string;
  kind: string;
  title: string;
  format: "toml" | "yaml" | "json";
  source: string;
  rules_json: string;
  rule_count: number;
  changes: Changes;
  base_bundle_id: string | null;
  proposed_by: string;
  proposer_member_id: string | null;
  proposer_token_id: string | null;
  proposed_at: Date;
  status: string;
  decided_by: string | null;
  decided_at: Date | null;
  failure: string | null;
  bundle_id: string | null;
}

/** The workspace's newest bundle: the rules in force. */
export async function latestBundleRow(
  db: Db,
  workspaceId: string,
): Promise<{ id: string; rules_json: string } | undefined> {
  const [b]: { id: string; rules_json: string }[] = await db`
    SELECT id, rules_json FROM bundles WHERE workspace_id = ${workspaceId} ORDER BY id DESC LIMIT 1`;
  return b;
}

interface NewProposal {
  readonly id: string;
  readonly workspaceId: string;
  readonly kind: string;
  readonly title: string;
  readonly format: string;
  readonly source: string;
  readonly rulesJson: string;
  readonly ruleCount: number;
  readonly changes: Changes;
  readonly baseBundleId: number | null;
  readonly by: string;
  readonly memberId: string | null;
  readonly tokenId: string | null;
}

/** A proposal recorded; nothing in force changes. */
export async function insertProposal(tx: Db, p: NewProposal): Promise<ProposalRow | undefined> {
  const [row]: ProposalRow[] = await tx`
      INSERT INTO proposals (id, workspace_id, kind, title, format, source, rules_json, rule_count, changes,
                             base_bundle_id, proposed_by, proposer_member_id, proposer_token_id)
      VALUES (${p.id}, ${p.workspaceId}, ${p.kind}, ${p.title}, ${p.format}, ${p.source},
              ${p.rulesJson}, ${p.ruleCount}, ${p.changes}, ${p.baseBundleId}, ${p.by},
              ${p.memberId}, ${p.tokenId})
      RETURNING *`;
  return row;
}

/** The proposals, pending only unless `all`, newest first. */
export async function listProposals(db: Db, workspaceId: string, all: boolean): Promise<ProposalRow[]> {
  return db`
    SELECT * FROM proposals WHERE workspace_id = ${workspaceId} ${all ? db`` : db`AND status = 'pending'`}
    ORDER BY proposed_at DESC, id LIMIT 200`;
}

/** One proposal of the workspace. */
export async function proposalById(db: Db, workspaceId: string, id: string): Promise<ProposalRow | undefined> {
  const [p]: ProposalRow[] = await db`
    SELECT * FROM proposals WHERE id = ${id} AND workspace_id = ${workspaceId}`;
  return p;
}

/** The rules of the bundle a proposal was made over (none when there was none). */
export async function bundleRules(db: Db, bundleId: string | null): Promise<{ rules_json: string }[]> {
  return bundleId === null ? [] : await db`SELECT rules_json FROM bundles WHERE id = ${bundleId}`;
}

/** One proposal of the workspace, locked for the deciding transaction. */
export async function proposalForUpdate(tx: Db, workspaceId: string, id: string): Promise<ProposalRow | undefined> {
  const [p]: ProposalRow[] = await tx`
    SELECT * FROM proposals WHERE id = ${id} AND workspace_id = ${workspaceId} FOR UPDATE`;
  return p;
}

/** The organization's active admins, and when the last admin other than `memberId` stopped being one. */
export async function adminsAndRecent(
  tx: Db,
  orgId: string,
  memberId: string,
): Promise<{ n: string; recent: Date | null } | undefined> {
  const [n]: { n: string; recent: Date | null }[] = await tx`
        SELECT count(*) FILTER (WHERE role = 'admin' AND status = 'active') AS n,
               max(admin_until) FILTER (WHERE id <> ${memberId}) AS recent
        FROM members WHERE org_id = ${orgId}`;
  return n;
}

/** Who minted a token. */
export async function tokenCreator(tx: Db, tokenId: string): Promise<{ created_by: string } | undefined> {
  const [t]: { created_by: string }[] = await tx`SELECT created_by FROM tokens WHERE id = ${tokenId}`;
  return t;
}

/** A proposal published as the workspace's new bundle, inside the approving transaction. */
export async function publishProposal(
  tx: Db,
  workspaceId: string,
  p: ProposalRow,
  by: string,
): Promise<{ bundleId: string | undefined; row: ProposalRow | undefined }> {
  const [b]: { id: string }[] = await tx`
      INSERT INTO bundles (workspace_id, format, source, rules_json, rule_count, published_by)
      VALUES (${workspaceId}, ${p.format}, ${p.source}, ${p.rules_json},
              ${p.rule_count}, ${`${p.proposed_by}, approved by ${by}`})
      RETURNING id`;
  const [row]: ProposalRow[] = await tx`
      UPDATE proposals SET status = 'published', decided_by = ${by}, decided_at = now(), bundle_id = ${b?.id ?? null}
      WHERE id = ${p.id} RETURNING *`;
  return { bundleId: b?.id, row };
}

/** A publish that failed: the proposal left `failed` with why, never approved. */
export async function failProposal(db: Db, id: string, by: string, why: string): Promise<void> {
  await db`UPDATE proposals SET status = 'failed', decided_by = ${by}, decided_at = now(), failure = ${why}
               WHERE id = ${id} AND status IN ('pending', 'failed')`;
}

/** A proposal rejected or withdrawn. */
export async function closeProposal(tx: Db, id: string, status: string, by: string): Promise<ProposalRow | undefined> {
  const [r]: ProposalRow[] = await tx`
      UPDATE proposals SET status = ${status}, decided_by = ${by}, decided_at = now() WHERE id = ${id} RETURNING *`;
  return r;
}
