// Where credentials live on a machine, by kind; each file is opened, read for counts, and fingerprinted.
import { join } from "node:path";
import { claudeDir, codexHome, geminiDir } from "../core/agent-paths.ts";
import type { Locations } from "../wire/clients.ts";
import * as read from "./credential-facts.ts";
import { dotEnvFiles } from "./dotenv.ts";
import { entries, fingerprint, isDir, isSocket, type Trail, usable } from "./trail.ts";
import type { CredentialKind, CredentialRow } from "./types.ts";

export type FoundCredential = Omit<CredentialRow, "via">;

interface Def {
  readonly label: string;
  readonly kind: CredentialKind;
  readonly cli?: string;
  readonly paths: (loc: Locations) => readonly string[];
  readonly read: (text: string, bytes: Uint8Array) => read.Reading;
}

const cfg = (loc: Locations) => loc.env.XDG_CONFIG_HOME || join(loc.home, ".config");
const data = (loc: Locations) => loc.env.XDG_DATA_HOME || join(loc.home, ".local", "share");
const mac = (loc: Locations, ...p: string[]) => join(loc.home, "Library", ...p);
const h = (loc: Locations, ...p: string[]) => join(loc.home, ...p);
const gcloud = (loc: Locations) => loc.env.CLOUDSDK_CONFIG || join(cfg(loc), "gcloud");
const azure = (loc: Locations) => loc.env.AZURE_CONFIG_DIR || h(loc, ".azure");
const whole = (_t: string, b: Uint8Array) => read.whole(b);

const DEFS: readonly Def[] = [
  {
    label: "AWS credentials",
    kind: "cloud",
    cli: "aws",
    paths: (l) => [l.env.AWS_SHARED_CREDENTIALS_FILE || h(l, ".aws", "credentials")],
    read: (t) => read.iniSections(t, /^aws_(access_key_id|secret_access_key|session_token)$/),
  },
  {
    label: "gcloud credentials",
    kind: "cloud",
    cli: "gcloud",
    paths: (l) =>
      ["credentials.db", "access_tokens.db", "application_default_credentials.json"].map((f) => join(gcloud(l), f)),
    read: whole,
  },
  {
    label: "Azure tokens",
    kind: "cloud",
    cli: "az",
    paths: (l) =>
      ["msal_token_cache.json", "msal_token_cache.bin", "accessTokens.json", "service_principal_entries.json"].map(
        (f) => join(azure(l), f),
      ),
    read: whole,
  },
  {
    label: "GitHub CLI login",
    kind: "repo",
    cli: "gh",
    paths: (l) => [join(l.env.GH_CONFIG_DIR || join(cfg(l), "gh"), "hosts.yml")],
    read: read.ghHosts,
  },
  {
    label: "Docker registry logins",
    kind: "cloud",
    cli: "docker",
    paths: (l) => [join(l.env.DOCKER_CONFIG || h(l, ".docker"), "config.json")],
    read: read.dockerConfig,
  },
  {
    label: "Kubernetes config",
    kind: "cloud",
    cli: "kubectl",
    paths: (l) => (l.env.KUBECONFIG ? l.env.KUBECONFIG.split(":").filter(Boolean) : [h(l, ".kube", "config")]),
    read: read.kubeconfig,
  },
  {
    label: "Terraform tokens",
    kind: "cloud",
    cli: "terraform",
    paths: (l) => [h(l, ".terraform.d", "credentials.tfrc.json")],
    read: (t) => read.jsonWithKeys(t, /^token$/),
  },
  {
    label: "Vercel login",
    kind: "cloud",
    cli: "vercel",
    paths: (l) => [
      join(data(l), "com.vercel.cli", "auth.json"),
      mac(l, "Application Support", "com.vercel.cli", "auth.json"),
    ],
    read: (t) => read.jsonWithKeys(t, /^token$/),
  },
  {
    label: "Netlify login",
    kind: "cloud",
    cli: "netlify",
    paths: (l) => [join(cfg(l), "netlify", "config.json"), mac(l, "Preferences", "netlify", "config.json")],
    read: (t) => read.jsonWithKeys(t, /^token$/),
  },
  {
    label: "Railway login",
    kind: "cloud",
    cli: "railway",
    paths: (l) => [h(l, ".railway", "config.json")],
    read: (t) => read.jsonWithKeys(t, /^token$/),
  },
  {
    label: "Fly.io login",
    kind: "cloud",
    cli: "fly",
    paths: (l) => [h(l, ".fly", "config.yml")],
    read: (t) => read.tokenLines(t, /^access_token:\s*\S/),
  },
  {
    label: "Stripe CLI keys",
    kind: "cloud",
    cli: "stripe",
    paths: (l) => [join(cfg(l), "stripe", "config.toml")],
    read: (t) => read.tokenLines(t, /_(api_key|secret)\s*=\s*\S/, "keys"),
  },
  { label: "netrc logins", kind: "secret", paths: (l) => [h(l, ".netrc")], read: read.netrc },
  {
    label: "git credentials",
    kind: "repo",
    cli: "git",
    paths: (l) => [h(l, ".git-credentials"), join(cfg(l), "git", "credentials")],
    read: (t) => read.tokenLines(t, /^[a-z][a-z0-9+.-]*:\/\/[^/\s]*@/, "entries"),
  },
  {
    label: "npm token",
    kind: "secret",
    cli: "npm",
    paths: (l) => [l.env.NPM_CONFIG_USERCONFIG || h(l, ".npmrc")],
    read: (t) => read.tokenLines(t, /(?:^|:)_(authToken|auth|password)\s*=\s*\S/),
  },
  {
    label: "PyPI token",
    kind: "secret",
    paths: (l) => [h(l, ".pypirc")],
    read: (t) => read.iniSections(t, /^password$/),
  },
  {
    label: "crates.io token",
    kind: "secret",
    paths: (l) => [h(l, ".cargo", "credentials.toml"), h(l, ".cargo", "credentials")],
    read: (t) => read.tokenLines(t, /^token\s*=/),
  },
  { label: "RubyGems key", kind: "secret", paths: (l) => [h(l, ".gem", "credentials")], read: whole },
  {
    label: "PostgreSQL passwords",
    kind: "db",
    cli: "psql",
    paths: (l) => [l.env.PGPASSFILE || h(l, ".pgpass")],
    read: read.pgpass,
  },
  {
    label: "MySQL client password",
    kind: "db",
    cli: "mysql",
    paths: (l) => [h(l, ".my.cnf"), h(l, ".mylogin.cnf")],
    read: (t, b) => (t.includes("[") ? read.iniSections(t, /^password$/) : read.whole(b)),
  },
  {
    label: "Claude Code sign-in",
    kind: "secret",
    paths: (l) => [join(claudeDir(l.home, l.env), ".credentials.json")],
    read: whole,
  },
  {
    label: "Codex sign-in",
    kind: "secret",
    paths: (l) => [join(codexHome(l.home, l.env), "auth.json")],
    read: whole,
  },
  {
    label: "Gemini CLI sign-in",
    kind: "secret",
    paths: (l) => [join(geminiDir(l.home, l.env), "oauth_creds.json")],
    read: whole,
  },
];

const NOT_KEYS = /\.pub$|^known_hosts|^authorized_keys|^config$|^environment$|\.sock$|^agent/;

function found(trail: Trail, path: string, def: Omit<Def, "paths">): FoundCredential | undefined {
  const bytes = trail.bytes(path);
  if (!bytes) return undefined;
  const r = def.read(new TextDecoder().decode(bytes), bytes);
  if (!r.holds) return undefined;
  return {
    path,
    kind: def.kind,
    label: def.label,
    fingerprint: fingerprint(bytes),
    facts: r.facts,
    ...(def.cli ? { cli: def.cli } : {}),
    usable: usable(path),
  };
}

function sshKeys(trail: Trail, loc: Locations): FoundCredential[] {
  const dir = h(loc, ".ssh");
  const key = { label: "SSH private key", kind: "secret" as const, cli: "git", read: read.safeSshKey };
  return entries(dir)
    .filter((n) => !NOT_KEYS.test(n))
    .flatMap((n) => found(trail, join(dir, n), key) ?? []);
}

/** Container and agent sockets: whoever can write to one commands what is behind it. */
function sockets(loc: Locations): FoundCredential[] {
  const host = loc.env.DOCKER_HOST;
  const docker = host
    ? host.startsWith("unix://")
      ? [host.slice("unix://".length)]
      : []
    : [
        "/var/run/docker.sock",
        ...(loc.env.XDG_RUNTIME_DIR ? [join(loc.env.XDG_RUNTIME_DIR, "docker.sock")] : []),
        h(loc, ".docker", "run", "docker.sock"),
      ];
  const out: FoundCredential[] = [];
  for (const path of new Set(docker)) {
    if (isSocket(path))
      out.push({ path, kind: "socket", label: "Docker socket", facts: {}, cli: "docker", usable: usable(path, true) });
  }
  const agent = loc.env.SSH_AUTH_SOCK;
  if (agent && isSocket(agent))
    out.push({ path: agent, kind: "socket", label: "SSH agent", facts: {}, cli: "git", usable: usable(agent, true) });
  return out;
}

function openclawCredentials(trail: Trail, loc: Locations): FoundCredential[] {
  const dir = join(loc.env.OPENCLAW_STATE_DIR || h(loc, ".openclaw"), "credentials");
  if (!isDir(dir)) return [];
  const def = { label: "OpenClaw credential", kind: "secret" as const, read: whole };
  return entries(dir).flatMap((n) => found(trail, join(dir, n), def) ?? []);
}

/** Where credentials live, found or not, without opening any: what the kernel wall keeps unreadable. */
export function credentialPlaces(loc: Locations): { path: string; label: string; cli?: string }[] {
  const out: { path: string; label: string; cli?: string }[] = [
    { path: h(loc, ".ssh"), label: "SSH keys", cli: "git" },
    { path: join(loc.env.OPENCLAW_STATE_DIR || h(loc, ".openclaw"), "credentials"), label: "OpenClaw credentials" },
  ];
  for (const def of DEFS) {
    for (const path of def.paths(loc)) out.push({ path, label: def.label, ...(def.cli ? { cli: def.cli } : {}) });
  }
  return out;
}

/** Every credential on this machine and in the repository at `repo` (its `.env` files). */
export function findCredentials(trail: Trail, loc: Locations, repo: string | undefined): FoundCredential[] {
  const out: FoundCredential[] = [...sshKeys(trail, loc)];
  const seen = new Set<string>();
  for (const def of DEFS) {
    for (const path of def.paths(loc)) {
      if (seen.has(path)) continue;
      seen.add(path);
      const f = found(trail, path, def);
      if (f) out.push(f);
    }
  }
  out.push(...openclawCredentials(trail, loc));
  const env = { label: ".env file", kind: "secret" as const, read: (t: string) => read.dotenv(t) };
  for (const path of dotEnvFiles(repo ?? loc.cwd)) {
    const f = found(trail, path, env);
    if (f) out.push(f);
  }
  out.push(...sockets(loc));
  return out;
}
