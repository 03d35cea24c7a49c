// The Article 30 record as code: every table this server keeps, what personal data it holds, on what basis, how a
// subject's rows are erased and whether they are encrypted at rest. A test holds it to the tables that exist, so a
// table nobody classified fails the build. Said plainly where it is weak: nothing here is encrypted by memnox itself,
// and no table is crypto-shredded yet (the audit chain's rows are anonymised instead).

type PersonalData = "none" | "identity" | "content" | "behavioural" | "commercial";
export type Basis = "contract" | "legitimate_interest" | "legal_obligation" | "not_applicable";
export type Erasure = "deleted" | "anonymised" | "kept" | "expires" | "not_applicable";

export interface RegisterEntry {
  readonly table: string;
  readonly holds: PersonalData;
  readonly basis: Basis;
  readonly erasure: Erasure;
  /** memnox encrypts no column itself: at rest means the database's own storage. */
  readonly encrypted: false;
  readonly note: string;
}

const row = (table: string, holds: PersonalData, basis: Basis, erasure: Erasure, note: string): RegisterEntry => ({
  table,
  holds,
  basis,
  erasure,
  encrypted: false,
  note,
});

export const REGISTER: readonly RegisterEntry[] = [
  row("orgs", "none", "not_applicable", "not_applicable", "the organization's name"),
  row("workspaces", "none", "not_applicable", "not_applicable", "a workspace's name and model preset"),
  row(
    "members",
    "identity",
    "contract",
    "anonymised",
    "address, name, sign-in identity; the row stays with nothing personal",
  ),
  row("machines", "behavioural", "contract", "kept", "a hostname's salted hash and its owner; detached on removal"),
  row("tokens", "identity", "contract", "deleted", "a token's hash and name"),
  row("device_codes", "none", "contract", "expires", "enrolment codes, minutes long"),
  row(
    "events",
    "behavioural",
    "legitimate_interest",
    "kept",
    "what agents did on a person's machine; masked, no content",
  ),
  row("bundles", "none", "not_applicable", "not_applicable", "published rules and who published them"),
  row("conditions", "none", "legitimate_interest", "kept", "freezes and who declared them"),
  row("holds", "behavioural", "legitimate_interest", "kept", "held calls and who answered"),
  row("mode_changes", "none", "legitimate_interest", "kept", "who changed a machine's mode"),
  row(
    "audit",
    "behavioural",
    "legal_obligation",
    "anonymised",
    "the address leaves entries about a subject; actors stay (not crypto-shredded)",
  ),
  row("sessions", "identity", "contract", "deleted", "a console session's hash"),
  row("sign_ins", "none", "contract", "expires", "OIDC state, minutes long"),
  row("proposals", "none", "legitimate_interest", "kept", "rule changes and their proposer"),
  row("agents", "none", "legitimate_interest", "kept", "agents, owners' addresses, the principal"),
  row("agent_machines", "none", "legitimate_interest", "kept", "where an agent runs"),
  row("mcp_servers", "none", "legitimate_interest", "kept", "MCP servers seen"),
  row("mcp_server_machines", "none", "legitimate_interest", "kept", "where an MCP server runs"),
  row("incidents", "behavioural", "legitimate_interest", "kept", "what a detector or a break-glass opened"),
  row("sources", "none", "contract", "not_applicable", "connected systems and their streams"),
  row("person_accounts", "identity", "contract", "deleted", "a system's account tied to a member's address"),
  row("files", "content", "contract", "kept", "uploaded documents (a subject's own are erased as source events)"),
  row("source_events", "content", "legitimate_interest", "deleted", "what a person wrote in a connected system"),
  row("sensitivity_rules", "none", "not_applicable", "not_applicable", "classification terms"),
  row("extraction_runs", "none", "contract", "kept", "model usage per run"),
  row("candidates", "content", "legitimate_interest", "kept", "decisions proposed from what people wrote"),
  row("decisions", "content", "legitimate_interest", "kept", "approved decisions under their approver's name"),
  row("decision_confirmations", "none", "legitimate_interest", "kept", "who confirmed a decision"),
  row("graph_nodes", "content", "legitimate_interest", "kept", "the team graph, rebuilt from the rows above"),
  row("graph_edges", "none", "legitimate_interest", "kept", "how graph nodes join"),
  row("elevations", "none", "contract", "kept", "role raises and who confirmed them"),
  row("teams", "none", "contract", "not_applicable", "named groups inside a workspace and the role each grants"),
  row("team_members", "identity", "contract", "deleted", "who is on which team; taken out when a member is removed"),
  row("inbound_deliveries", "none", "legitimate_interest", "expires", "delivery ids, kept days at most"),
  row("deployment", "none", "not_applicable", "not_applicable", "this deployment's own settings"),
  row("source_health", "none", "legitimate_interest", "not_applicable", "delivery counts per source"),
  row("agent_grants", "none", "contract", "kept", "a grant's hash and the member it acts for"),
  row("agent_spend", "commercial", "contract", "kept", "what an agent reported spending"),
  row("break_glass", "none", "legal_obligation", "kept", "overrides, their reason and who broke the glass"),
  row("resource_tags", "none", "not_applicable", "not_applicable", "tags a person confirmed on resources"),
  row("sinks", "none", "contract", "not_applicable", "where the record is forwarded"),
  row("schema_migrations", "none", "not_applicable", "not_applicable", "which migrations ran"),
];
