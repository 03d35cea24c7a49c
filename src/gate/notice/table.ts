// The notice layer's tables: what counts as an action of a kind never done before, what takes something worth
// having, what sends outward, and when a session failing the same way is paused. Pure, and the only place any of it
// is said: the findings, the history read and the breaker all read these.
import { type Action, shownTargets } from "../../core/action.ts";
import type { Surface } from "../../core/event.ts";
import type { Boundary } from "../boundary.ts";

/** How far back an agent's history counts: an action not done in this long is new again. */
export const HISTORY_DAYS = 30;
/** How long after something worth having was taken a send from the same session asks. */
export const CHAIN_MINUTES = 30;

/** The seams an agent's own tools reach the gate through. The egress proxy also carries the agent process's own
 * traffic (its model provider, telemetry), and a tool's send already met the layer at the seam that ran it. */
export const NOTICED_SURFACES: ReadonlySet<Surface> = new Set(["hook", "shell", "interceptor", "mcp", "git"]);

/** CLIs whose write verbs stay on this machine (the local loop), so only their outward verbs are new kinds. */
const LOCAL_CLIS = new Set(["git", "npm", "docker", "playwright"]);

/** One kind of thing an agent may do for the first time: a key to remember it by, and the words that say it. */
interface Novelty {
  /** Stable across calls: `host api.example.com`, `push /repo origin`, `write /repo/src`, `verb gh.pr-create`. */
  readonly key: string;
  readonly words: string;
}

interface NoveltyKind {
  readonly id: string;
  /** The novelties of an action of this kind, one per target; empty when it is not of this kind. */
  of(action: Action, boundary: Boundary | undefined): readonly Novelty[];
}

const under = (path: string, root: string) => path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);

/** The directory a write lands under: a top-level one of the project, else the folder it is written in. */
function writtenUnder(path: string, boundary: Boundary | undefined): Novelty | undefined {
  if (!path.startsWith("/")) return undefined;
  if (boundary?.exempt.some((d) => under(path, d))) return undefined;
  const root = boundary?.roots.find((r) => under(path, r));
  if (root) {
    const rest = path.slice(root.length).replace(/^\/+/, "");
    const top = rest.includes("/") ? rest.slice(0, rest.indexOf("/")) : "";
    if (top === ".git") return undefined;
    return top
      ? { key: `write ${root}/${top}`, words: `first write under ${top}/` }
      : { key: `write ${root}`, words: `first write at the top of ${root}` };
  }
  // Outside the project a place is its top directory (`/etc`, `/tmp`), or in a home its own (`~/.config`): a fresh
  // temp directory each run is not a new place each time.
  const parts = path.split("/").filter(Boolean);
  const depth = parts[0] === "home" || parts[0] === "Users" ? 3 : 1;
  const dir = `/${parts.slice(0, Math.min(depth, parts.length - 1)).join("/")}`;
  return { key: `write ${dir}`, words: `first write under ${dir}` };
}

/** THE table of kinds, first match wins: an action is at most one kind. */
const NOVELTY_KINDS: readonly NoveltyKind[] = [
  {
    id: "host",
    of: (a) =>
      a.name === "http.request"
        ? shownTargets(a).map((h) => ({ key: `host ${h}`, words: `first request to ${h}` }))
        : [],
  },
  {
    id: "push",
    of: (a, b) => {
      if (!a.name.startsWith("git.push")) return [];
      const remote = shownTargets(a)[0] ?? "its default remote";
      const repo = b?.roots[0] ?? "";
      return [{ key: `push ${repo} ${remote}`.replace(/ +/g, " "), words: `first push to ${remote}` }];
    },
  },
  {
    id: "write",
    of: (a, b) =>
      a.name === "filesystem.write" || a.name === "filesystem.delete"
        ? [...new Map(a.targets.flatMap((t) => writtenUnder(t, b) ?? []).map((n) => [n.key, n])).values()]
        : [],
  },
  {
    id: "mcp-tool",
    of: (a) => {
      if (!a.name.startsWith("mcp.") || a.class === "read") return [];
      const [, server, ...tool] = a.name.split(".");
      return [{ key: `tool ${a.name}`, words: `first use of ${server}'s ${tool.join(".")} tool` }];
    },
  },
  {
    id: "cli-verb",
    of: (a) => {
      const cli = a.cli;
      if (!cli || a.class === "read" || a.class === "unknown") return [];
      if (a.class === "write" && LOCAL_CLIS.has(cli)) return [];
      const verb = a.name.startsWith(`${cli}.`) ? a.name.slice(cli.length + 1) : a.name;
      return [{ key: `verb ${a.name}`, words: `first use of ${cli} ${verb}` }];
    },
  },
];

export function noveltiesOf(action: Action, boundary: Boundary | undefined): readonly Novelty[] {
  for (const kind of NOVELTY_KINDS) {
    const found = kind.of(action, boundary);
    if (found.length > 0) return found;
  }
  return [];
}

/** Programs no verb table knows that carry a message out: mail and chat from the command line. */
const MAIL_AND_CHAT = new Set(
  "mail mailx sendmail mutt msmtp swaks neomutt slack slack-cli discord discord-cli telegram-send ntfy apprise teams".split(
    " ",
  ),
);

/** Whether an action sends something off this machine: HTTP to a host that is not this one, a push, a copy or a
 * connection to a host, an outward MCP tool, a CLI's outward verb, mail and chat. */
export function sendsOutward(a: Action): string | undefined {
  if (a.name === "shell.execute" || a.name === "http.loopback") return undefined;
  const where = shownTargets(a)[0];
  // A request to another host sends whatever its URL carries, a GET's query string included: it is outward whatever
  // its method, so a secret read earlier in the session makes it ask (and a credential's shape in it, refused).
  if (a.class === "communication" || a.name === "http.request")
    return where && !a.name.startsWith("mcp.") ? `${a.name} to ${where}` : a.name;
  const program = a.name.endsWith(".run") ? a.name.slice(0, -".run".length) : undefined;
  if (a.class === "unknown" && program && MAIL_AND_CHAT.has(program)) return `${program} (mail or chat)`;
  return undefined;
}

/** Files whose content is a credential wherever they sit: private keys, cloud and registry logins, `.env`. */
const CREDENTIAL_FILES = [
  /\/\.ssh\/(?!(?:known_hosts(?:\.old)?|config|authorized_keys|environment)$)[^/]+(?<!\.pub)$/,
  /\/\.aws\/(?:credentials|sso\/cache(?:\/.*)?)$/,
  /\/\.config\/gcloud\/(?:credentials\.db|access_tokens\.db|application_default_credentials\.json|legacy_credentials(?:\/.*)?)$/,
  /\/\.azure\/(?:accessTokens\.json|msal_token_cache\.(?:json|bin)|service_principal_entries\.json)$/,
  /\/(?:\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.pgpass|\.my\.cnf|\.mylogin\.cnf)$/,
  /\/\.(?:kube\/config|docker\/config\.json|config\/gh\/hosts\.yml|config\/git\/credentials)$/,
  /\/\.env(?:\.(?!example$|sample$|template$)[^/]+)?$/,
];

/** Verbs that print a credential: a CLI handing out its token, a secret store read, the keychain. */
const CREDENTIAL_VERBS =
  /(?:auth-token|print-access-token|print-identity-token|get-secret-value|get-session-token|get-login-password|get-authorization-token|^keychain\.read)$/;

/** Whether an action takes something worth having even where no rule guards it: a credential file or CLI. */
export function takesCredential(a: Action): boolean {
  if (a.name === "filesystem.read") return a.targets.some((t) => CREDENTIAL_FILES.some((re) => re.test(t)));
  return CREDENTIAL_VERBS.test(a.name);
}

/** What a read took, in words a row can keep: the action and where it read (shown targets only). */
export function takenWords(a: Action): string {
  const where = shownTargets(a).join(" ").slice(0, 200);
  if (a.name === "filesystem.read") return `read ${where}`;
  return where ? `${a.name} ${where}` : a.name;
}

/** One way of failing that pauses a session: `count` times within `windowMinutes`. */
export interface Threshold {
  readonly way: "exit" | "refused";
  readonly count: number;
  readonly windowMinutes: number;
}

/** THE circuit breaker's thresholds, recorded with every trip. A refusal repeated is a clearer sign of a stuck
 * loop than a failing command (a test run fails while its fix is written), so it trips sooner. */
export const BREAKER: readonly Threshold[] = [
  { way: "exit", count: 8, windowMinutes: 10 },
  { way: "refused", count: 5, windowMinutes: 10 },
];

/** A paused session stays paused until a person resumes it; the fact still needs an expiry. */
export const PAUSE_DAYS = 7;

const AGENT_WORDS: Readonly<Record<string, string>> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  "gemini-cli": "Gemini CLI",
  cursor: "Cursor",
  windsurf: "Windsurf",
};

/** An agent as a sentence names it. */
export function agentWords(agent: string | undefined): string {
  if (!agent) return "this agent";
  return AGENT_WORDS[agent] ?? agent;
}
