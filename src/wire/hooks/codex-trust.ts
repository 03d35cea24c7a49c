// Whether Codex runs memnox's hooks, decided the way Codex decides it (0.171, `codex-rs/hooks` discovery): each handler
// has a key `<hooks.json>:<event>:<group>:<handler>` and a hash of its normalised definition; it runs only when
// `[hooks.state."<key>"].trusted_hash` in config.toml equals that hash. A trusted entry changed since (a timeout
// 30 -> 31) is `modified` and skipped, exactly like a new one. `codex app-server`'s `hooks/list` reports the same
// hashes (test/codex.trust.test.ts holds the two together).

import { isRecord } from "../../core/record.ts";
import { sha256Hex } from "../../io/hash.ts";

type CodexTrustStatus = "trusted" | "untrusted" | "modified" | "disabled";

interface CodexHandlerTrust {
  readonly key: string;
  readonly event: string;
  readonly currentHash: string;
  readonly status: CodexTrustStatus;
}

/** Codex's event label: `PreToolUse` -> `pre_tool_use`. */
const codexEventLabel = (event: string): string => event.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();

/** Events whose matcher Codex ignores (and leaves out of the hash). */
const NO_MATCHER = new Set(["UserPromptSubmit", "Stop"]);

/** Keys sorted at every level, no spaces: serde_json over Codex's canonicalised value. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isRecord(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

/**
 * The hash Codex keeps for one command handler: the event, the group's matcher and the handler with Codex's own
 * defaults filled in (timeout 600 s, at least 1; async false), `commandWindows` dropped, unset fields left out.
 */
function codexHookHash(event: string, matcher: unknown, handler: Record<string, unknown>): string {
  const timeout = typeof handler.timeout === "number" ? Math.max(1, Math.trunc(handler.timeout)) : 600;
  const normal: Record<string, unknown> = {
    type: "command",
    command: handler.command,
    timeout,
    async: handler.async === true,
    ...(typeof handler.statusMessage === "string" ? { statusMessage: handler.statusMessage } : {}),
  };
  const identity: Record<string, unknown> = {
    event_name: codexEventLabel(event),
    hooks: [normal],
    ...(typeof matcher === "string" && !NO_MATCHER.has(event) ? { matcher } : {}),
  };
  return `sha256:${sha256Hex(canonical(identity))}`;
}

/**
 * The trust of every handler in `hooksDoc` (a parsed hooks.json) that `mine` picks, against `configDoc` (the parsed
 * config.toml holding `[hooks.state]`), keyed as Codex keys them by the hooks file's path.
 */
export function codexTrust(
  file: string,
  hooksDoc: unknown,
  configDoc: unknown,
  mine: (handler: Record<string, unknown>) => boolean,
): CodexHandlerTrust[] {
  const state =
    isRecord(configDoc) && isRecord(configDoc.hooks) && isRecord(configDoc.hooks.state) ? configDoc.hooks.state : {};
  const events = isRecord(hooksDoc) && isRecord(hooksDoc.hooks) ? hooksDoc.hooks : {};
  const out: CodexHandlerTrust[] = [];
  for (const [event, groups] of Object.entries(events)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, g) => {
      if (!isRecord(group) || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((handler, h) => {
        if (!isRecord(handler) || handler.type !== "command" || !mine(handler)) return;
        const key = `${file}:${codexEventLabel(event)}:${g}:${h}`;
        const currentHash = codexHookHash(event, group.matcher, handler);
        const s = state[key];
        const trusted = isRecord(s) && typeof s.trusted_hash === "string" ? s.trusted_hash : undefined;
        const status: CodexTrustStatus =
          isRecord(s) && s.enabled === false
            ? "disabled"
            : trusted === undefined
              ? "untrusted"
              : trusted === currentHash
                ? "trusted"
                : "modified";
        out.push({ key, event, currentHash, status });
      });
    });
  }
  return out;
}
