// The systems a workspace can connect, and exactly what memnox reads of each: the kinds the one normalizer listens to
// (normalize.ts SUBSCRIBED_KINDS), what a stream is there, and how deliveries are signed. No per-system code: this is
// what the Connectors page shows before anybody connects anything. Only systems whose deliveries the normalizer reads
// are offered, and each is verified as it signs (own-signatures.ts) or through the integration provider's one scheme.

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
    reads: [
      "pull requests opened and merged",
      "issues opened and closed",
      "comments on issues, pull requests and commits (not pushes, reviews' states or labels)",
    ],
    stream: { what: "a repository", example: "acme/checkout" },
    signing: "a GitHub App's webhook: x-hub-signature-256 with the secret below as the App's webhook secret",
  },
  {
    type: "linear",
    name: "Linear",
    place: "work",
    reads: ["issues created and completed or canceled", "comments on issues (not projects, cycles, labels or edits)"],
    stream: { what: "a team's id", example: "72b2a2dc-6f4f-4423-9d34-24b5bd10634a" },
    signing:
      "Linear's own webhook: Linear-Signature (hex HMAC-SHA256 of the body) with the secret below set as the webhook's secret (webhookCreate or webhookUpdate through Linear's API: its settings page makes up its own), inside a 5-minute webhookTimestamp",
  },
  {
    type: "jira",
    name: "Jira",
    place: "work",
    reads: [
      "issues created and resolved",
      "comments on issues (not edits, worklogs or transitions that resolve nothing)",
    ],
    stream: { what: "a project key", example: "ENG" },
    needsBaseUrl: { example: "https://acme.atlassian.net" },
    signing:
      "a Jira admin webhook (System → WebHooks) with the secret below pasted as its Secret: X-Hub-Signature sha256=…; a webhook without a secret is refused",
  },
];

export function systemOf(type: string): System | undefined {
  return SYSTEMS.find((s) => s.type === type);
}
