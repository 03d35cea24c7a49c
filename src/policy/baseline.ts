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

interface BaselineOptions {
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
  secretVariables:
    "a variable named like a credential holds one: the program that needs it reads it from the environment itself, and printed it could only be copied somewhere",
  secretStore: "this prints a live secret from the store; a task that needs the value can have a person say yes",
  publish: "a token here publishes and pushes under your name; installs and builds work without anyone reading it",
  signing: "a private signing key proves who wrote something, and no task needs to read it",
  env: "a .env file holds live credentials, and almost no task needs the values themselves",
  destructive: "it rewrites or destroys what may exist nowhere else, so a person runs it on purpose",
  outward: "these are the calls whose consequences other people see",
  sharedPush:
    "the default branch, a protected branch and tags are what others build on and deploy from, so a push there is a person's call",
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
    "nothing can bring it back: outside the repository (or in its .git), past what a milestone keeps of ignored files, or for a file named like a credential, no milestone keeps it, and memnox rewind has nothing to restore",
  envDelete:
    "a .env file is ignored by git, so no milestone keeps it, and the credentials in it may exist nowhere else",
  fetched:
    "this fetches code from outside the project and runs it, and nobody here has read it; a package the project declares runs without asking",
  publishing: "publishing puts a release under your name where everyone installs it",
  inlineRuns:
    "this one-liner starts other programs or builds its code at run time, a second command line inside the first that memnox reads only in part",
  gitCode:
    "git would run this later, on an ordinary-looking command, where nobody sees it; the same command run directly is ruled on where it runs",
  commandVar:
    "the program started with it runs this value as a command, out of sight of the line that set it; the same command run directly is ruled on where it runs",
  gitHooks: "code here runs on every commit, checkout or push without being asked about again",
  runnerSettings:
    "a package manager, direnv or husky runs the code this names on a later ordinary command (npm test, cd, git commit), where nobody sees it",
  keys: "a key or an authorized_keys line written here lets somebody in, or loses a key that may exist nowhere else",
  credentialsWrite: "this overwrites a credential a CLI depends on, which may exist nowhere else",
  rewrites:
    "it moves a branch or tag over what it held, or drops what only a reflog still kept, so work may end up where neither git nor memnox rewind can bring it back",
} as const;

/** Why each part of the local loop proceeds without a question: said by protect and in a session's opening block. */
const LOCAL_LOOP = {
  scripts:
    "the project's own scripts and tools (npm/pnpm/yarn/bun scripts, make, test runners, linters, npx of a package it has): their lines are read here and ruled, and their children meet the interceptors",
  deletes:
    "deletes and moves inside the repository: a milestone is kept first (ignored files too, up to a bound; build output and caches are made again), so memnox rewind brings them back; outside it, or in .git, they ask",
  loopback: "HTTP to this machine (localhost, 127.0.0.1): it reaches a server running here, and nothing leaves",
  mcpReads: "MCP tools classified as reads: reading changes nothing",
  inline:
    "one-liners and the repository's own scripts: their code is read, and what it touches meets the rules; code built at run time still asks",
  publicKeys: "public keys (*.pub, known_hosts) and directory listings: they hold no secret",
  deferred:
    "a command a repository script builds at run time (`$PY -m pytest`): the interceptors rule on it when it starts",
  branchPush:
    "a push to a branch of its own, neither the default nor a protected one: unforced, git only adds a branch or fast-forwards it, so nothing can be destroyed (the pull request it opens is still a person's to merge)",
} as const;

/** What a refusal of a setting or variable that runs code says to do instead. */
const RUN_DIRECTLY: Alternative = {
  action: "shell.execute",
  note: "Run the command itself instead, not through a setting or variable: then it is ruled on where it runs.",
};

/**
 * Forced updates of local refs and the pruning that empties a reflog's safety net: destructive, yet often meant
 * (`git checkout -B topic`), so a person says yes rather than being refused outright.
 */
const HISTORY_REWRITES = [
  "git.checkout-reset-branch",
  "git.switch-reset-branch",
  "git.update-ref-branch",
  "git.fetch-force",
  "git.tag-force",
  "git.gc-prune",
  "git.prune",
  "git.repack-drop",
];

/** A destructive verb with a safe substitute: its own rule, so the refusal can name what to do instead. */
const ALTERNATIVES: Readonly<Record<string, { readonly reason: string; readonly alternative: Alternative }>> = {
  "git.push-force": {
    reason: "a force-push can destroy work that exists nowhere else",
    alternative: {
      action: "git.push-lease",
      note: "Push with --force-with-lease instead: git then refuses if the remote holds work this repository has not seen.",
    },
  },
  "git.reset-hard": {
    reason: "it throws away uncommitted work that exists nowhere else",
    alternative: { action: "git.stash", note: "git stash sets the changes aside where they can be brought back." },
  },
};

// Every .env variant but the templates that name the variables without values; `*.env` and direnv's `.envrc`.
const ENV_FILES = [".env", "**/.env.!(example|sample|template|dist|defaults|schema)", "*.env", ".envrc"];

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

// Whole directories where the CLI keeps them: a file added there later (an SSO cache, a new context) is covered.
const CLOUD = [
  "~/.aws",
  "~/.config/gcloud",
  "~/.azure",
  "~/.kube",
  "~/.docker/config.json",
  "~/.config/gh",
  "~/.terraform.d/credentials.tfrc.json",
  "~/.vault-token",
  "~/.fly/config.yml",
  "~/.railway/config.json",
  "~/.config/stripe/config.toml",
  "~/.config/netlify/config.json",
  "~/.codex/auth.json",
  "~/.claude/.credentials.json",
  "~/.gemini/oauth_creds.json",
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

// Flags that turn a harmless status or config read into a printed credential, in every spelling of them.
const TOKEN_SHOWS = {
  actions: ["gh.auth-status", "kubectl.config-view"],
  flags: ["--show-token", "--show-token=*", "-t", "--raw", "--raw=*", "--flatten", "--flatten=*"],
};

// A CLI asked for its own secret by name: `aws configure get aws_secret_access_key`, an npm `_authToken`.
const OWN_SECRET_GETS = {
  actions: ["aws.configure-get", "gh.config-get", "npm.config-get", "npm.config-list"],
  words: ["*secret*", "*token*", "*Token*", "*_auth*", "*password*", "*_password*"],
};

// Verbs that print a value kept in a secret store: sometimes the task, so asked rather than denied.
const SECRET_STORE_READS = [
  "aws.secretsmanager-batch-get-secret-value",
  "aws.secretsmanager-get-secret-value",
  "az.keyvault-secret-download",
  "az.keyvault-secret-show",
  "heroku.config",
  "heroku.config-get",
  "kubectl.get-secret",
  "kubectl.describe-secret",
];
const DECRYPTED_PARAMETERS = {
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
  "~/.cargo/credentials",
  "~/.gem/credentials",
  "~/.pgpass",
  "~/.my.cnf",
  "~/.mylogin.cnf",
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

// Directories: a pattern naming one covers what is written into it, and the directory itself.
const PERSISTENCE_PATHS = [
  "~/.config/systemd",
  "~/.local/share/systemd",
  "~/Library/LaunchAgents",
  "~/.config/autostart",
  "/etc/cron*",
  "/var/spool/cron",
];

// Files a shell (or git, for every repository) reads at start-up: a line added runs in every later session.
const STARTUP_FILES = [
  "~/.bashrc",
  "~/.bash_profile",
  "~/.bash_login",
  "~/.bash_logout",
  "~/.profile",
  "~/.zshrc",
  "~/.zshenv",
  "~/.zprofile",
  "~/.zlogin",
  "~/.zlogout",
  "~/.kshrc",
  "~/.cshrc",
  "~/.tcshrc",
  "~/.config/fish",
  "~/.xprofile",
  "~/.xinitrc",
  "~/.xsessionrc",
  "~/.gitconfig",
  "~/.config/git/config",
  "~/.ssh/rc",
  "~/.ssh/config",
];

// Keys and the file that says who may log in: a write destroys or lets in, so it is refused.
const KEY_FILES = [
  "~/.ssh/authorized_keys*",
  "~/.ssh/id_*",
  "~/.ssh/*.pem",
  "~/.ssh/*.key",
  "~/.ssh/*_key",
  "~/.gnupg",
];

// A repository's own hooks and settings: what runs on its next commit or push.
const GIT_CODE_PATHS = ["**/.git/hooks/**", "**/.git/config"];

// A project's settings that name code its tools run on their own: npm's script-shell, direnv's .envrc, husky's hooks.
const PROJECT_RUNNER_SETTINGS = ["**/.npmrc", "**/.yarnrc", "**/.yarnrc.yml", "**/.envrc", "**/.husky/**"];

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

function machineBaseline(opts: BaselineOptions): RuleSpec[] {
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
      name: "secret-variables-not-printed",
      description: `a variable named like a credential, printed, ${by}`,
      match: { actions: ["environment.secret-print"] },
      decision: { effect: "deny", reason: REASONS.secretVariables },
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
    ...indirectionRules(by),
  ];
}

/**
 * What reaches past the line an agent wrote: settings and variables that make a later command run code, writes
 * that run again at the next start or destroy a key, a CLI printing its own secret, a command left to run later.
 */
function indirectionRules(by: string): RuleSpec[] {
  return [
    {
      name: "git-settings-that-run-code-asked",
      description: `git settings whose value runs a command or forces a push, ${by}`,
      match: { actions: ["git.config-exec"] },
      decision: { effect: "ask", reason: REASONS.gitCode, alternative: RUN_DIRECTLY },
    },
    {
      name: "command-variables-asked",
      description: `EDITOR, PAGER, GIT_SSH_COMMAND and their kin holding a shell line, ${by}`,
      match: { actions: ["environment.command"] },
      decision: { effect: "ask", reason: REASONS.commandVar, alternative: RUN_DIRECTLY },
    },
    writeRule("git-hooks-asked", GIT_CODE_PATHS, "ask", REASONS.gitHooks, `a repository's hooks and settings, ${by}`),
    writeRule("startup-files-asked", STARTUP_FILES, "ask", REASONS.persistence, `shell and git start-up files, ${by}`),
    writeRule(
      "project-runner-settings-asked",
      PROJECT_RUNNER_SETTINGS,
      "ask",
      REASONS.runnerSettings,
      `settings that name code a package manager, direnv or husky runs, ${by}`,
    ),
    writeRule("keys-not-overwritten", KEY_FILES, "deny", REASONS.keys, `SSH and GPG keys, authorized_keys, ${by}`),
    writeRule(
      "credentials-not-overwritten",
      [...CLOUD, ...PUBLISH, "~/.ssh"],
      "ask",
      REASONS.credentialsWrite,
      `credential files and directories, ${by}`,
    ),
    {
      name: "cli-secrets-not-printed",
      description: `a CLI asked to print its own secret, ${by}`,
      match: { actions: OWN_SECRET_GETS.actions, arguments: { argv: OWN_SECRET_GETS.words } },
      decision: { effect: "deny", reason: REASONS.tokens },
    },
    {
      name: "scheduled-commands-asked",
      description: `commands left to run later (at, batch, systemd-run), ${by}`,
      match: { actions: ["system.schedule"] },
      decision: { effect: "ask", reason: REASONS.persistence },
    },
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

function repositoryBaseline(tables: readonly VerbTable[], opts: BaselineOptions): RuleSpec[] {
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
      destructive.filter((a) => !substituted.includes(a) && !HISTORY_REWRITES.includes(a)),
      {
        effect: "deny",
        reason: REASONS.destructive,
      },
    ).map((r) => ({ ...r, match: { ...r.match, classes: ["destructive" as const] } })),
    ...rule(
      "history-rewrites-asked",
      `forced updates of local branches and tags, and pruning that drops unreachable work at once, ${by}`,
      HISTORY_REWRITES.filter((a) => destructive.includes(a)),
      { effect: "ask", reason: REASONS.rewrites },
    ),
    ...rule("outward-commands-asked", `verbs whose effect others see, ${by}`, patternsOf(tables, "communication"), {
      effect: "ask",
      reason: REASONS.outward,
    }),
    ...pushRules(by),
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
/**
 * A push is asked where others build on what it lands on (the remote's default branch, a protected branch, a tag, or
 * where memnox cannot tell), and proceeds on a branch of its own: unforced, it can only add a branch or fast-forward
 * one (a forced or deleting push is another action, denied above). `push:<where>` is the gate's fact for the call;
 * the allow relaxes the outward ask of its own file only there, so a push with no such fact still asks.
 */
function pushRules(by: string): RuleSpec[] {
  return [
    {
      name: "shared-pushes-asked",
      description: `pushes to the default branch, a protected branch or a tag, ${by}`,
      match: { actions: ["git.push"], state: ["push:default", "push:protected", "push:tag", "push:unknown"] },
      decision: { effect: "ask", reason: REASONS.sharedPush },
    },
    {
      name: "branch-pushes-allowed",
      description: `pushes to a branch of the agent's own, ${by}`,
      match: { actions: ["git.push"], state: ["push:branch"] },
      decision: { effect: "allow", reason: LOCAL_LOOP.branchPush, relaxes: ["outward-commands-asked"] },
    },
  ];
}

function localLoop(by: string): RuleSpec[] {
  return [
    {
      name: "deletes-asked",
      description: `file deletes no milestone can bring back (outside the repository or in its .git, ignored files past the bound, credentials), ${by}`,
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
