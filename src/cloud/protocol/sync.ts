// What crosses the wire between a machine and its workspace, as both ends read it. Types and constants only.
import type { Effect, Mode } from "../../core/effect.ts";

/**
 * The explicit allow-list of what a machine sends per action (spec: Connecting to a workspace). A field that is not
 * named here does not travel, and the server refuses a batch carrying one.
 */
export const SENT_FIELDS = [
  "dedupKey",
  "subjectId",
  "occurredAt",
  "agentSessionId",
  "agent",
  "surface",
  "operation",
  "classes",
  "effect",
  "reason",
  "ruleId",
  "resourceRef",
  "argsDigest",
  "exitCode",
  "startedAt",
  "policyHash",
  "correlationId",
  "wouldReach",
] as const;

export interface SentEvent {
  /** The ledger row's id: a resend is deduplicated on (machine, dedupKey), never doubled. */
  readonly dedupKey: string;
  /** The decision the row is about: itself for a decision, its parent for an outcome. */
  readonly subjectId: string;
  readonly occurredAt: string;
  readonly agentSessionId?: string;
  /** Which agent acted, by the name the machine knows it by (the hook's agent, MEMNOX_AGENT_NAME): what a freeze names. */
  readonly agent?: string;
  readonly surface: string;
  readonly operation: string;
  readonly classes?: readonly string[];
  readonly effect?: Effect;
  readonly reason?: string;
  readonly ruleId?: string;
  /** What it acted on (a path, a host, a branch), after the masker. */
  readonly resourceRef?: string;
  /** A keyed hash of the arguments, never the arguments. */
  readonly argsDigest?: string;
  readonly exitCode?: number;
  readonly startedAt?: string;
  readonly policyHash?: string;
  /** On a refused read of a credential: what that credential would have opened, from the machine's last scan. */
  readonly wouldReach?: string;
  /** The lineage id the action's run carried (a run environment, a commit trailer): what joins it to other machines'. */
  readonly correlationId?: string;
}

/** Each batch is at most this many events, signed as a whole by the machine's key. */
export const MAX_BATCH = 500;

export interface EventBatch {
  readonly machineId: string;
  readonly sentAt: string;
  readonly events: readonly SentEvent[];
}

/** The header carrying the Ed25519 signature (base64) of a batch's exact body bytes. */
export const SIGNATURE_HEADER = "memnox-signature";

/** A call held on the machine, as it travels up so somebody elsewhere can answer it. */
export interface SentHold {
  /** The machine's own hold id (`a_…`). */
  readonly id: string;
  readonly surface: string;
  readonly action: string;
  readonly target?: string;
  /** The repository the agent stood in when it asked (its root), or the directory when it stood in none. */
  readonly repository?: string;
  readonly agent?: string;
  readonly session?: string;
  readonly reason: string;
  readonly ruleId?: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

/**
 * What the machine's last scan found, as much as the team needs: each agent by the name the gate knows it by, and each
 * MCP server by name with whether every launch goes through the proxy. Never a launch command or an environment value.
 */
export interface SentInventory {
  /** Over the content, so an unchanged scan is sent once. */
  readonly hash: string;
  readonly scannedAt: string;
  readonly agents: readonly { readonly name: string; readonly kind: string }[];
  readonly mcpServers: readonly {
    readonly name: string;
    /** Every configured launch of it on this machine goes through memnox's proxy. */
    readonly proxied: boolean;
    readonly tools?: number;
    readonly writeTools?: number;
    /** The agents (clients) that configure it. */
    readonly agents: readonly string[];
  }[];
}

export interface Heartbeat {
  /** The bundle hash computed from the files on disk now (a hand edit shows as a different one). */
  readonly bundleHash: string | null;
  /** The mode actually running: what config.toml says. */
  readonly modeRunning: Mode;
  /** When `memnox stop` holds, until when. */
  readonly stoppedUntil?: string;
  /** The newest mode change this machine applied, so the server stops carrying it. */
  readonly modeChangeApplied?: number;
  readonly holds: readonly SentHold[];
  /** Server hold ids whose answers this machine applied. */
  readonly answersApplied: readonly string[];
  readonly version: string;
  /** Sent when the scan changed since the workspace last acknowledged one. */
  readonly inventory?: SentInventory;
}

interface ModeChange {
  readonly id: number;
  readonly to: Mode;
  readonly by: string;
  readonly at: string;
}

export interface HoldAnswerDown {
  /** The server's id for the hold; `localId` is the machine's. */
  readonly id: string;
  readonly localId: string;
  readonly grant: boolean;
  readonly scope: "once" | "session";
  readonly by: string;
  readonly at: string;
}

export interface HeartbeatReply {
  readonly machineId: string;
  readonly modeSet: Mode;
  /** A change somebody made that this machine has not yet acknowledged: carried, never asserted every minute. */
  readonly modeChange: ModeChange | null;
  readonly answers: readonly HoldAnswerDown[];
  /** The bundle in force, so a machine knows whether its pull is current. */
  readonly bundleHash: string;
  /** The inventory the workspace holds for this machine, so an unchanged one is not sent again. */
  readonly inventoryHash?: string | null;
  readonly serverTime: string;
}
