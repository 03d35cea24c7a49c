// The baseline `memnox protect --yes` writes, generated from the verb tables: secret reads denied on this machine,
// destructive verbs denied, outward and unknown ones asked, reads allowed in the repository. Pure.
import type { ActionClass } from "../core/action.ts";
import type { Alternative } from "../core/verdict.ts";
import { TOOLCHAIN_OUTWARD } from "../resolve/index.ts";
import type { VerbEntry, VerbTable } from "../resolve/types.ts";
import type { PolicyRule } from "./engine/index.ts";

/** A rule as generated: no file or line until it is written somewhere. */
export type RuleSpec = Omit<PolicyRule, "file" | "line">;

export interface Baseline {
  /** For `~/.memnox/machine.policies.toml`: about this machine, in every repository. */
  readonly machine: readonly RuleSpec[];
  /** For `memnox.policies.toml` in the repository. */
  readonly repository: readonly RuleSpec[];
}

export interface BaselineOptions {
  /** The day it was written (`2026-11-30`), kept in each rule's description. */
  readonly date: string;
  /** Where memnox keeps its own signing keys, when it is not `~/.memnox/keys`. */
  readonly keysDir?: string;
}

/** Reasons a person would accept, in the spec's own words where it has them. */
export const REASONS = {
  ssh: "almost no task needs the key itself, and a leaked one is somebody’s weekend",
  cloud:
    "the CLI reads this credential itself and keeps working; an agent reading the file could only copy it somewhere",
  tokens: "the CLI uses this token itself and keeps working; an agent that prints it could only copy it somewhere",
  secretStore: "this prints a live secret from the store; a task that needs the value can have a person say yes",
  publish: "a token here publishes and pushes under your name; installs and builds work without anyone reading it",
  signing: "a private signing key proves who wrote something, and no task needs to read it",
  env: "a .env file holds live credentials, and almost no task needs the values themselves",
  destructive: "it rewrites or destroys what may exist nowhere else, so a person runs it on purpose",
  outward: "these are the calls whose consequences other people see",
  unknown: "memnox has no entry for this subcommand, so it cannot tell a read from a delete, and a person should look",
  mcp: "these are the calls whose consequences other people see",
  http: "denying every unknown host breaks ordinary work on the first package install",
  reads: "reading changes nothing, and it is most of what an agent does",
  disk: "rewriting a raw disk destroys every file on it at once",
  system: "these files belong to the operating system, not to any project, and an agent has no business changing them",
  memnox: "these files decide whether agents on this machine are governed, and an agent does not loosen its own leash",
  agentConfig:
    "this file decides which hooks and permissions an agent runs with, so a change to it is a person's decision",
  hidden: "memnox cannot read this code before it runs, so it cannot tell a harmless script from a destructive one",
  persistence: "it makes something run again later, unattended, which is how one bad command outlives the session",
  inject: "a variable that loads code into every program it starts changes what each of them does",
  processes: "stopping a process can take down somebody's work, or the guard itself",
  network: "a raw connection or a remote shell reaches beyond this machine, and what crosses it is unseen",
  history: "shell histories keep the tokens and passwords people typed, and no task needs to read them",
  keychain: "the system keychain holds every saved password on this machine",
  processSecrets: "another process's memory and the system's password files hold secrets no task needs",
  privilege: "as another user, root above all, a command reaches past every boundary this session has",
  unrecoverable:
    "nothing can bring it back: outside the repository (or in its .git) no milestone is kept, and memnox rewind has nothing to restore",
  envDelete:
    "a .env file is ignored by git, so no milestone keeps it, and the credentials in it may exist nowhere else",
  fetched:
    "this fetches code from outside the project and runs it, and nobody here has read it; a package the project declares runs without asking",
  publishing: "publishing puts a release under your name where everyone installs it",
  inlineRuns:
    "this one-liner starts other programs or builds its code at run time, a second command line inside the first that memnox reads only in part",
} as const;

/** Why each part of the local loop proceeds without a question: said by protect and in a session's opening block. */
export const LOCAL_LOOP = {
  scripts:
    "the project's own scripts and tools (npm/pnpm/yarn/bun scripts, make, test runners, linters, npx of a package it has): their lines are read here and ruled, and their children meet the interceptors",
  deletes:
    "deletes and moves inside the repository: a milestone is kept first, so memnox rewind brings them back; outside it, or in .git, they ask",
  loopback: "HTTP to this machine (localhost, 127.0.0.1): it reaches a server running here, and nothing leaves",
  mcpReads: "MCP tools classified as reads: reading changes nothing",
  inline:
    "one-liners and the repository's own scripts: their code is read, and what it touches meets the rules; code built at run time still asks",
  publicKeys: "public keys (*.pub, known_hosts) and directory listings: they hold no secret",
  deferred:
    "a command a repository script builds at run time (`$PY -m pytest`): the interceptors rule on it when it starts",
} as const;

/** A destructive verb with a safe substitute: its own rule, so the refusal can name what to do instead. */
const ALTERNATIVES: Readonly<Record<string, { readonly reason: string; readonly alternative: Alternative }>> = {
  "git.push-force": {
    reason: "a force-push can destroy work that exists nowhere else",
    alternative: {
      action: "git.push",
      note: "Push without --force; if the remote has moved on, fetch and rebase onto it first.",
    },
  },
  "git.reset-hard": {
    reason: "it throws away uncommitted work that exists nowhere else",
    alternative: { action: "git.stash", note: "git stash sets the changes aside where they can be brought back." },
  },
};

const ENV_FILES = [
  ".env",
  ".env.local",
  ".env.*.local",
  ".env.production",
  ".env.prod",
  ".env.development",
  ".env.dev",
  ".env.staging",
  ".env.test",
];

// Everything in the directory but what is public by design; a recursive read (`grep -r`, `cp -r`) names `.ssh/**`,
// and a listing (`ls`, `stat`) reads no content at all.
const SSH_SECRETS = ["**/.ssh/**/!(*.pub|known_hosts|known_hosts.old|authorized_keys)"];
const SSH_PUBLIC = [
  "**/.ssh",
  "**/.ssh/*.pub",
  "**/.ssh/known_hosts",
  "**/.ssh/known_hosts.old",
  "**/.ssh/authorized_keys",
];

const CLOUD = [
  "~/.aws/credentials",
  "~/.config/gcloud/credentials.db",
  "~/.config/gcloud/access_tokens.db",
  "~/.config/gcloud/application_default_credentials.json",
  "~/.config/gcloud/legacy_credentials",
  "~/.azure/accessTokens.json",
  "~/.azure/msal_token_cache.json",
  "~/.azure/msal_token_cache.bin",
  "~/.azure/service_principal_entries.json",
  "~/.kube/config",
  "~/.docker/config.json",
  "~/.config/gh/hosts.yml",
];

// Verbs that print a live credential: the same secret as the file the CLI keeps it in, so the same deny.
export const TOKEN_PRINTS = [
  "aws.configure-export-credentials",
  "aws.sts-get-session-token",
  "az.account-get-access-token",
  "fly.auth-token",
  "gcloud.auth-application-default-print-access-token",
  "gcloud.auth-print-access-token",
  "gcloud.auth-print-identity-token",
  "gh.auth-token",
];

// Flags that turn a harmless status or config read into a printed credential.
export const TOKEN_SHOWS = {
  actions: ["gh.auth-status", "kubectl.config-view"],
  flags: ["--show-token", "-t", "--raw"],
};

// Verbs that print a value kept in a secret store: sometimes the task, so asked rather than denied.
export const SECRET_STORE_READS = [
  "aws.secretsmanager-batch-get-secret-value",
  "aws.secretsmanager-get-secret-value",
  "az.keyvault-secret-download",
  "az.keyvault-secret-show",
  "heroku.config",
  "heroku.config-get",
];
export const DECRYPTED_PARAMETERS = {
  actions: ["aws.ssm-get-parameter", "aws.ssm-get-parameters", "aws.ssm-get-parameters-by-path"],
  flags: ["--with-decryption"],
};

const PUBLISH = [
  "~/.npmrc",
  "~/.pypirc",
  "~/.netrc",
  "~/.git-credentials",
  "~/.config/git/credentials",
  "~/.cargo/credentials.toml",
  "~/.gem/credentials",
];

function readDenied(
  name: string,
  targets: readonly string[],
  reason: string,
  description: string,
  alternative?: Alternative,
): RuleSpec {
  return {
    name,
    description,
    match: { actions: ["filesystem.read"], targets },
    decision: { effect: "deny", reason, ...(alternative ? { alternative } : {}) },
  };
}

// A pattern naming a directory covers everything inside it.
const SYSTEM_PATHS = [
  "/etc",
  "/usr",
  "/bin",
  "/sbin",
  "/boot",
  "/lib",
  "/lib64",
  "/System",
  "/private/etc",
  "/Library/LaunchDaemons",
  "/proc",
  "/sys",
];

const PROCESS_SECRETS = [
  "/proc/*/mem",
  "/proc/*/environ",
  "/proc/kcore",
  "/etc/shadow",
  "/etc/gshadow",
  "/etc/sudoers",
  "/etc/sudoers.d",
];

const AGENT_CONFIGS = [
  "~/.claude/settings.json",
  "~/.claude/settings.local.json",
  "~/.claude.json",
  "~/.codex/config.toml",
  "~/.codex/hooks.json",
  "~/.gemini/settings.json",
  "~/.cursor/hooks.json",
  "~/.codeium/windsurf/hooks.json",
  "**/.claude/settings.json",
  "**/.claude/settings.local.json",
  "**/.gemini/settings.json",
  "**/.cursor/hooks.json",
  "**/.windsurf/hooks.json",
];

const PERSISTENCE_PATHS = ["~/.config/systemd/**", "~/Library/LaunchAgents/**", "/etc/cron*/**", "/var/spool/cron/**"];

const HISTORIES = [
  "~/.bash_history",
  "~/.zsh_history",
  "~/.local/share/fish/fish_history",
  "~/.psql_history",
  "~/.mysql_history",
];

function writeRule(
  name: string,
  targets: readonly string[],
  effect: "ask" | "deny",
  reason: string,
  description: string,
): RuleSpec {
  return {
    name,
    description,
    match: { actions: ["filesystem.write", "filesystem.delete"], targets },
    decision: { effect, reason },
  };
}

/**
 * Every path the baseline's secret-read denies name, as written (`~/…`, slash-free names, globs): the gate asks of a
 * target the line leaves open (`cat $(…)`, `cat ~/$d/id`) whether it could be one of these.
 */
export function secretReadTargets(keysDir = "~/.memnox/keys"): string[] {
  return [
    "**/.ssh",
    "**/.ssh/**",
    ...CLOUD,
    ...PUBLISH,
    "~/.gnupg",
    keysDir,
    ...ENV_FILES,
    ...HISTORIES,
    "~/Library/Keychains",
    ...PROCESS_SECRETS,
  ];
}

export function machineBaseline(opts: BaselineOptions): RuleSpec[] {
  const by = `written by memnox protect --yes on ${opts.date}`;
  const signing = ["~/.gnupg", opts.keysDir ?? "~/.memnox/keys"];
  return [
    readDenied("ssh-keys-not-read", SSH_SECRETS, REASONS.ssh, `SSH keys, ${by}`),
    {
      name: "public-keys-allowed",
      description: `public keys, known hosts and directory listings, ${by}`,
      match: { actions: ["filesystem.read", "filesystem.list"], targets: SSH_PUBLIC },
      decision: { effect: "allow", reason: LOCAL_LOOP.publicKeys },
    },
    readDenied("cloud-credentials-not-read", CLOUD, REASONS.cloud, `cloud and cluster credentials, ${by}`),
    {
      name: "cli-tokens-not-printed",
      description: `credentials printed by the CLI that holds them, ${by}`,
      match: { actions: TOKEN_PRINTS },
      decision: { effect: "deny", reason: REASONS.tokens },
    },
    {
      name: "cli-tokens-not-shown",
      description: `credentials a status or config read prints when asked to, ${by}`,
      match: { actions: TOKEN_SHOWS.actions, arguments: { argv: TOKEN_SHOWS.flags } },
      decision: { effect: "deny", reason: REASONS.tokens },
    },
    {
      name: "secret-store-values-asked",
      description: `values read out of a secret store, ${by}`,
      match: { actions: SECRET_STORE_READS },
      decision: { effect: "ask", reason: REASONS.secretStore },
    },
    {
      name: "decrypted-parameters-asked",
      description: `parameters read decrypted, ${by}`,
      match: { actions: DECRYPTED_PARAMETERS.actions, arguments: { argv: DECRYPTED_PARAMETERS.flags } },
      decision: { effect: "ask", reason: REASONS.secretStore },
    },
    readDenied("publish-tokens-not-read", PUBLISH, REASONS.publish, `registry and git tokens, ${by}`),
    readDenied("signing-keys-not-read", signing, REASONS.signing, `signing keys, ${by}`),
    readDenied("env-files-not-read", ENV_FILES, REASONS.env, `.env files, ${by}`, {
      action: "filesystem.read",
      resource: ".env.example",
      note: "Read .env.example instead: it names the same variables without their values.",
    }),
    readDenied("shell-histories-not-read", HISTORIES, REASONS.history, `shell histories, ${by}`),
    readDenied("keychains-not-read", ["~/Library/Keychains"], REASONS.keychain, `the system keychain, ${by}`),
    {
      name: "keychain-passwords-not-read",
      description: `saved passwords read through macOS security, ${by}`,
      match: { actions: ["keychain.read"] },
      decision: { effect: "deny", reason: REASONS.keychain },
    },
    readDenied(
      "process-secrets-not-read",
      PROCESS_SECRETS,
      REASONS.processSecrets,
      `process memory and password files, ${by}`,
    ),
    writeRule("memnox-not-loosened", ["~/.memnox/**"], "deny", REASONS.memnox, `memnox's own files, ${by}`),
    {
      name: "memnox-not-stopped",
      description: `signals to memnox's own processes, ${by}`,
      match: { actions: ["signal.kill"], targets: ["*memnox*"] },
      decision: { effect: "deny", reason: REASONS.memnox },
    },
    writeRule("system-files-not-written", SYSTEM_PATHS, "deny", REASONS.system, `operating-system files, ${by}`),
    writeRule("agent-configs-asked", AGENT_CONFIGS, "ask", REASONS.agentConfig, `agents' own settings, ${by}`),
    writeRule("persistence-asked", PERSISTENCE_PATHS, "ask", REASONS.persistence, `scheduled and service files, ${by}`),
  ];
}

/** The action pattern an entry covers: each placeholder becomes the path word it stands for, wildcards as `*`. */
export function entryPattern(entry: VerbEntry): string {
  const word = (w: string | undefined) => (w === undefined || w === "**" ? "*" : w.toLowerCase().replace(/[.:]/g, "-"));
  return entry.action
    .replace(/\{path\}/g, () => entry.path.map(word).join("-"))
    .replace(/\{(\d+)\}/g, (_, n: string) => word(entry.path[Number(n) - 1]))
    .replace(/\*(?:-?\*)+/g, "*");
}

function patternsOf(tables: readonly VerbTable[], cls: ActionClass): string[] {
  const out = new Set<string>();
  for (const t of tables) for (const e of t.verbs) if (e.class === cls) out.add(entryPattern(e));
  return [...out].sort();
}

function rule(
  name: string,
  description: string,
  actions: readonly string[],
  decision: RuleSpec["decision"],
): RuleSpec[] {
  return actions.length === 0 ? [] : [{ name, description, match: { actions }, decision }];
}

export function repositoryBaseline(tables: readonly VerbTable[], opts: BaselineOptions): RuleSpec[] {
  const by = `written by memnox protect --yes on ${opts.date}`;
  const known = new Set(tables.flatMap((t) => t.verbs.map(entryPattern)));
  const destructive = patternsOf(tables, "destructive");
  const substituted = Object.keys(ALTERNATIVES).filter(
    (a) => destructive.includes(a) && known.has(ALTERNATIVES[a]?.alternative.action ?? ""),
  );
  const own = substituted.flatMap((a) => {
    const s = ALTERNATIVES[a];
    if (!s) return [];
    return rule(`${a.replace(/\./g, "-")}-denied`, `${a}, ${by}`, [a], {
      effect: "deny",
      reason: s.reason,
      alternative: s.alternative,
    });
  });
  const unknown = [...tables.map((t) => `${t.cli}.unknown`), ...patternsOf(tables, "unknown")];
  return [
    ...own,
    // Only while destructive: `git restore <path>` inside the checkout is a write the milestone brings back.
    ...rule(
      "destructive-commands-denied",
      `destructive verbs from the verb tables, ${by}`,
      destructive.filter((a) => !substituted.includes(a)),
      {
        effect: "deny",
        reason: REASONS.destructive,
      },
    ).map((r) => ({ ...r, match: { ...r.match, classes: ["destructive" as const] } })),
    ...rule("outward-commands-asked", `verbs whose effect others see, ${by}`, patternsOf(tables, "communication"), {
      effect: "ask",
      reason: REASONS.outward,
    }),
    ...rule("unknown-subcommands-asked", `subcommands no verb table knows, ${by}`, [...new Set(unknown)].sort(), {
      effect: "ask",
      reason: REASONS.unknown,
    }),
    ...localLoop(by),
    ...rule("disk-writes-denied", `raw disk writes, ${by}`, ["disk.write"], { effect: "deny", reason: REASONS.disk }),
    ...rule(
      "hidden-code-asked",
      `code memnox cannot read before it runs, ${by}`,
      ["shell.dynamic", "shell.stdin", "shell.source", "shell.script", "shell.interactive"],
      { effect: "ask", reason: REASONS.hidden },
    ),
    ...rule("persistence-commands-asked", `cron and service changes, ${by}`, ["system.crontab", "system.service"], {
      effect: "ask",
      reason: REASONS.persistence,
    }),
    ...rule("code-injection-asked", `variables that load code, ${by}`, ["environment.inject"], {
      effect: "ask",
      reason: REASONS.inject,
    }),
    ...rule("privilege-asked", `sudo, su, doas, pkexec, ${by}`, ["privilege.escalate"], {
      effect: "ask",
      reason: REASONS.privilege,
    }),
    ...rule("signals-asked", `stopping processes, ${by}`, ["signal.kill"], {
      effect: "ask",
      reason: REASONS.processes,
    }),
    ...rule(
      "raw-network-asked",
      `raw connections and remote shells, ${by}`,
      ["network.ssh", "network.copy", "network.connect", "network.listen"],
      {
        effect: "ask",
        reason: REASONS.network,
      },
    ),
    {
      name: "mcp-calls-asked",
      description: `MCP tool calls that are not reads, ${by}`,
      match: { actions: ["mcp.*"], classes: ["write", "destructive", "communication", "unknown"] },
      decision: { effect: "ask", reason: REASONS.mcp },
    },
    ...rule("http-requests-asked", `web requests, ${by}`, ["http.request"], { effect: "ask", reason: REASONS.http }),
    ...rule(
      "reads-allowed",
      `reads from the verb tables, ${by}`,
      ["filesystem.read", "filesystem.list", ...patternsOf(tables, "read")],
      {
        effect: "allow",
        reason: REASONS.reads,
      },
    ),
  ];
}

/**
 * The local loop, redrawn so enforce is livable: a delete asks only where nothing brings it back, fetched code asks,
 * publishing asks; what proceeds is said by allow rules whose reasons a person reads (LOCAL_LOOP).
 */
function localLoop(by: string): RuleSpec[] {
  return [
    {
      name: "deletes-asked",
      description: `file deletes no milestone can bring back (outside the repository, or in its .git), ${by}`,
      match: { actions: ["filesystem.delete"], classes: ["destructive"] },
      decision: { effect: "ask", reason: REASONS.unrecoverable },
    },
    {
      name: "env-file-deletes-asked",
      description: `.env files deleted, which git ignores and no milestone keeps, ${by}`,
      match: { actions: ["filesystem.delete"], targets: ENV_FILES },
      decision: { effect: "ask", reason: REASONS.envDelete },
    },
    {
      name: "inline-code-running-programs-asked",
      description: `interpreter one-liners that start programs or build code at run time, ${by}`,
      match: { actions: ["*.eval"], classes: ["unknown"] },
      decision: {
        effect: "ask",
        reason: REASONS.inlineRuns,
        alternative: { action: "shell.execute", note: "Run the command itself, not through python -c or node -e." },
      },
    },
    {
      name: "fetched-code-asked",
      description: `code fetched and run: a URL or git install, npx/dlx/uvx of a package the project does not have, ${by}`,
      match: { actions: ["shell.fetched"] },
      decision: { effect: "ask", reason: REASONS.fetched },
    },
    {
      name: "publishing-asked",
      description: `packages published by the language toolchains, ${by}`,
      match: { actions: TOOLCHAIN_OUTWARD },
      decision: { effect: "ask", reason: REASONS.publishing },
    },
    {
      name: "repository-deletes-allowed",
      description: `deletes and moves inside the repository, kept by a milestone first, ${by}`,
      match: { actions: ["filesystem.delete"], classes: ["write"] },
      decision: { effect: "allow", reason: LOCAL_LOOP.deletes },
    },
    {
      name: "project-scripts-allowed",
      description: `the project's own scripts and toolchain, ${by}`,
      match: { actions: PROJECT_TOOLS, classes: ["write"] },
      decision: { effect: "allow", reason: LOCAL_LOOP.scripts },
    },
    {
      name: "loopback-requests-allowed",
      description: `HTTP requests to this machine, ${by}`,
      match: { actions: ["http.loopback"] },
      decision: { effect: "allow", reason: LOCAL_LOOP.loopback },
    },
    {
      name: "inline-code-allowed",
      description: `one-liners and repository scripts whose code memnox read, ${by}`,
      match: { actions: ["*.eval"], classes: ["read", "write"] },
      decision: { effect: "allow", reason: LOCAL_LOOP.inline },
    },
    {
      name: "script-computed-commands-allowed",
      description: `commands a repository script computes at run time, ruled when they start, ${by}`,
      match: { actions: ["shell.deferred"] },
      decision: { effect: "allow", reason: LOCAL_LOOP.deferred },
    },
    {
      name: "mcp-reads-allowed",
      description: `MCP tools classified as reads, ${by}`,
      match: { actions: ["mcp.*"], classes: ["read"] },
      decision: { effect: "allow", reason: LOCAL_LOOP.mcpReads },
    },
  ];
}

// The scripts and tools `project-scripts-allowed` names: every one resolves its lines or meets the interceptors.
const PROJECT_TOOLS = ["npm.run", "npm.test", "npm.start", "*.run", "docker.compose-*", "playwright.test"];

export function baselineRules(tables: readonly VerbTable[], opts: BaselineOptions): Baseline {
  return { machine: machineBaseline(opts), repository: repositoryBaseline(tables, opts) };
}
