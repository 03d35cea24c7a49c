// The systems a workspace can connect, and exactly what memnox reads of each: the kinds the one normalizer listens to
// (normalize.ts SUBSCRIBED_KINDS), what a stream is there, and how deliveries are signed. No per-system code: this is
// what the Connectors page shows before anybody connects anything. Only systems whose deliveries the normalizer reads
// today are offered (Linear's and Jira's raw webhook shapes are not yet: offering them would promise a quiet feed).

export interface System {
  readonly type: string;
  readonly name: string;
  /** Where decisions show: the conversation, or the work. */
  readonly place: "conversation" | "work" | "documents";
  /** What memnox reads, in the system's own words; nothing else it emits is stored. */
  readonly reads: readonly string[];
  /** What one stream is there, and an example of its id. */
  readonly stream: { readonly what: string; readonly example: string };
  /** The system ships no permalink: one is composed from the workspace's base URL, which it then needs. */
  readonly needsBaseUrl?: { readonly example: string };
  /** How its deliveries are signed on the inbound route. */
  readonly signing: string;
}

const STANDARD =
  "Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), through the integration provider";

export const SYSTEMS: readonly System[] = [
  {
    type: "slack",
    name: "Slack",
    place: "conversation",
    reads: ["messages posted in the channels you choose (not reactions, edits or joins)"],
    stream: { what: "a channel id", example: "C024BE7LR" },
    needsBaseUrl: { example: "https://acme.slack.com" },
    signing: STANDARD,
  },
  {
    type: "github",
    name: "GitHub",
    place: "work",
    reads: ["pull requests opened and merged", "issues opened and closed (not pushes, comments or labels)"],
    stream: { what: "a repository", example: "acme/checkout" },
    signing: "a GitHub App's webhook: x-hub-signature-256 with the secret below as the App's webhook secret",
  },
];

export function systemOf(type: string): System | undefined {
  return SYSTEMS.find((s) => s.type === type);
}
