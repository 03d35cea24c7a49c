// The capability inventory a scan produces (`memnox scan --json`, version 2): paths, kinds and counts, never a value.
import type { ActionClass } from "../core/action.ts";
import type { Effect } from "../core/effect.ts";
import type { ToolBasis } from "../resolve/mcp-tools.ts";
import type { ServerFacts } from "../wire/servers.ts";

export const INVENTORY_VERSION = 2;

export const CREDENTIAL_KINDS = ["file", "secret", "repo", "db", "cloud", "socket"] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** A file (or socket) that proved something, and what it proved. */
export interface Evidence {
  readonly path: string;
  readonly what: string;
}

/** How an agent reaches something: its own shell, or one of its MCP servers. */
export interface Via {
  readonly agentId: string;
  /** `shell` or `mcp:<server>`. */
  readonly through: string;
  /** The file that granted that path. */
  readonly grantedBy: string;
}

export interface AgentRow {
  readonly id: string;
  /** What every screen prints: the name given with `memnox agents name`, else the product. */
  readonly name: string;
  readonly product: string;
  readonly harness: boolean;
  readonly evidence: readonly Evidence[];
  readonly shell: { readonly has: boolean; readonly why: string; readonly grantedBy: string };
  /** Server ids (see ServerRow.id) the agent starts. */
  readonly servers: readonly string[];
  /** Credential paths it can read or use, directly or transitively. */
  readonly reaches: readonly string[];
  /** Authenticated CLIs it can run. */
  readonly clis: readonly string[];
}

export interface ToolRow {
  readonly name: string;
  readonly class: ActionClass;
  readonly basis: ToolBasis;
  /** Whether calling it can change something outside this machine. */
  readonly outside: boolean;
}

export type ToolsFrom = "probe" | "cache" | "proxy" | "none";

export interface ServerRow extends ServerFacts {
  /** `<client>:<name>@<file>` (plus `#<project>` for Claude Code's per-project servers): unique in one scan. */
  readonly id: string;
  readonly name: string;
  readonly client: string;
  readonly file: string;
  readonly wrapped: boolean;
  /** A hosted server, or one handed a credential: its writes land outside this machine. */
  readonly remote: boolean;
  /** null when nobody knows yet (not probed, nothing cached). */
  readonly tools: readonly ToolRow[] | null;
  readonly toolsFrom: ToolsFrom;
  readonly toolsNote?: string;
  /** Tools the host's own filter removed: not counted as reachable. */
  readonly hiddenByHost: number;
}

export interface CredentialRow {
  readonly path: string;
  readonly kind: CredentialKind;
  readonly label: string;
  /** `sha256:` + 12 hex of the content: tells two files apart, attacks neither. Absent for a socket. */
  readonly fingerprint?: string;
  /** Structural facts only: counts and flags (`profiles: 2`), never a name or value from inside. */
  readonly facts: Readonly<Record<string, number | boolean>>;
  /** The CLI whose verb table it authenticates, when one does. */
  readonly cli?: string;
  /** Readable (writable, for a socket) by this user, so by anything running as this user. */
  readonly usable: boolean;
  readonly via: readonly Via[];
}

export interface VerbCounts {
  readonly read: number;
  readonly write: number;
  readonly destructive: number;
  readonly communication: number;
  readonly unknown: number;
}

export interface CliRow {
  readonly cli: string;
  readonly credential: string;
  /** Whether the program is on PATH; an agent with a shell could still fetch it. */
  readonly installed: boolean;
  readonly verbs: VerbCounts;
  readonly outside: number;
}

export interface HarnessRow {
  readonly agentId: string;
  readonly kind: "hermes" | "openclaw" | "ruflo";
  readonly runtimes: readonly string[];
  readonly roles: readonly string[];
  /** Files that install hooks. */
  readonly hooks: number;
  readonly federated: boolean;
  readonly evidence: readonly string[];
}

export type ChainLink = "acquire" | "package" | "emit";

export interface ChainRow {
  readonly agentId: string;
  readonly subject: string;
  readonly consequence: string;
  readonly steps: readonly { readonly link: ChainLink; readonly server: string; readonly tool: string }[];
  readonly individuallyHarmless: true;
}

export interface CapabilityRow {
  /** The action name rules match: `gh.pr-merge`, `aws.*-delete-*`, `mcp.github.merge_pull_request`. */
  readonly action: string;
  readonly class: ActionClass;
  readonly via: "cli" | "mcp";
  /** The CLI or the server name. */
  readonly source: string;
  readonly grantedBy: readonly string[];
  readonly agents: readonly string[];
  readonly outside: boolean;
  /** Whether a rule in force matches it, and what that rule decides. */
  readonly governed: boolean;
  readonly effect: Effect;
  readonly rule?: string;
}

export interface ConfigProblem {
  readonly path: string;
  readonly owner: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

export interface Coverage {
  readonly outside: number;
  readonly governed: number;
  /** A rule file in force would not parse: `governed` is then a floor. */
  readonly floor: boolean;
  readonly ruleSetHash: string;
  readonly ruleFiles: readonly string[];
  readonly ruleProblems: readonly { readonly file: string; readonly line?: number; readonly message: string }[];
}

export interface Inventory {
  readonly version: typeof INVENTORY_VERSION;
  readonly scannedAt: string;
  readonly home: string;
  readonly cwd: string;
  readonly repository?: string;
  readonly probed: boolean;
  readonly agents: readonly AgentRow[];
  readonly harnesses: readonly HarnessRow[];
  readonly mcpServers: readonly ServerRow[];
  readonly credentials: readonly CredentialRow[];
  readonly clis: readonly CliRow[];
  readonly chains: readonly ChainRow[];
  readonly capabilities: readonly CapabilityRow[];
  readonly coverage: Coverage;
  /** Configs that would not parse: they grant nothing, and are named. */
  readonly problems: readonly ConfigProblem[];
  /** Every file the scan opened, so the tool that inspects your credentials can itself be inspected. */
  readonly read: readonly string[];
}
