// Where each CLI with a verb table keeps the credential it reads itself, and the credential files `protect` proposes
// to close on this machine. Paths with `~`; found by looking at the disk, never by reading a value.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { REASONS } from "../../policy/baseline.ts";

/** The files each CLI reads its own credential from (the CLI keeps working when an agent may not read them). */
export const CLI_CREDENTIALS: Readonly<Record<string, readonly string[]>> = {
  aws: ["~/.aws/credentials", "~/.aws/sso/cache"],
  az: [
    "~/.azure/accessTokens.json",
    "~/.azure/msal_token_cache.json",
    "~/.azure/msal_token_cache.bin",
    "~/.azure/service_principal_entries.json",
  ],
  gcloud: [
    "~/.config/gcloud/credentials.db",
    "~/.config/gcloud/access_tokens.db",
    "~/.config/gcloud/application_default_credentials.json",
    "~/.config/gcloud/legacy_credentials",
  ],
  kubectl: ["~/.kube/config"],
  docker: ["~/.docker/config.json"],
  gh: ["~/.config/gh/hosts.yml"],
  git: ["~/.git-credentials", "~/.config/git/credentials"],
  fly: ["~/.fly/config.yml"],
  heroku: ["~/.netrc"],
  netlify: ["~/.config/netlify/config.json", "~/Library/Preferences/netlify/config.json"],
  npm: ["~/.npmrc"],
  railway: ["~/.railway/config.json"],
  stripe: ["~/.config/stripe/config.toml"],
  terraform: ["~/.terraform.d/credentials.tfrc.json"],
  vercel: ["~/.local/share/com.vercel.cli/auth.json", "~/Library/Application Support/com.vercel.cli/auth.json"],
  psql: ["~/.pgpass"],
  mysql: ["~/.my.cnf", "~/.mylogin.cnf"],
};

type CredentialKind = "ssh" | "cloud" | "publish" | "env";

export interface CredentialFile {
  /** As a rule names it: `~/…` under HOME, else absolute. */
  readonly target: string;
  readonly kind: CredentialKind;
  /** A readable file beside it naming the same things without values (`.env.example`). */
  readonly substitute?: string;
}

export const KIND_REASON: Readonly<Record<CredentialKind, string>> = {
  ssh: REASONS.ssh,
  cloud: REASONS.cloud,
  publish: REASONS.publish,
  env: REASONS.env,
};

const PUBLISH = new Set(["~/.npmrc", "~/.netrc", "~/.git-credentials", "~/.config/git/credentials", "~/.pgpass"]);
const NOT_KEYS = new Set(["known_hosts", "known_hosts.old", "config", "authorized_keys", "environment"]);

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The credential files that exist on this machine (and the repository's .env files), each once. */
export function credentialFiles(home: string, repository: string | undefined): CredentialFile[] {
  const out: CredentialFile[] = [];
  const expand = (t: string) => join(home, t.slice(2));
  const ssh = join(home, ".ssh");
  for (const name of safeList(ssh)) {
    if (!NOT_KEYS.has(name) && !name.endsWith(".pub") && isFile(join(ssh, name))) {
      out.push({ target: `~/.ssh/${name}`, kind: "ssh" });
    }
  }
  const seen = new Set<string>();
  for (const target of Object.values(CLI_CREDENTIALS).flat()) {
    if (seen.has(target) || !existsSync(expand(target))) continue;
    seen.add(target);
    out.push({ target, kind: PUBLISH.has(target) ? "publish" : "cloud" });
  }
  if (repository) {
    for (const name of safeList(repository)) {
      if (!/^\.env($|\.)/.test(name) || /\.(example|sample|template)$/.test(name) || !isFile(join(repository, name)))
        continue;
      const example = [".env.example", ".env.sample", ".env.template"].find((e) => isFile(join(repository, e)));
      out.push({
        target: join(repository, name),
        kind: "env",
        ...(example ? { substitute: join(repository, example) } : {}),
      });
    }
  }
  return out;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
