// What a credential file holds, as counts and flags only: each reader sees the text and returns no part of it.
import { isRecord } from "../core/record.ts";

type Facts = Record<string, number | boolean>;

/** Whether the file holds a credential at all, and its structural facts. */
export interface Reading {
  readonly holds: boolean;
  readonly facts: Facts;
}

const none: Reading = { holds: false, facts: {} };
const lines = (text: string) => text.split(/\r?\n/).map((l) => l.trim());
const count = (text: string, re: RegExp) => lines(text).filter((l) => re.test(l)).length;

/** A private key, and whether it needs a passphrase (the OpenSSH format names its cipher in the clear). */
function sshKey(text: string): Reading {
  const m = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----([\s\S]*?)-----END/.exec(text);
  if (!m) return /^PuTTY-User-Key-File/m.test(text) ? { holds: true, facts: {} } : none;
  if ((m[1] ?? "").includes("ENCRYPTED") || /Proc-Type:.*ENCRYPTED/.test(text)) {
    return { holds: true, facts: { passphrase: true } };
  }
  if (m[1] === "OPENSSH ") {
    // The cipher name sits right after the magic: the first 64 base64 characters are enough.
    const head = atob((m[2] ?? "").replace(/\s+/g, "").slice(0, 64));
    return { holds: true, facts: { passphrase: !head.slice(15, 40).includes("none") } };
  }
  return { holds: true, facts: { passphrase: false } };
}

export function safeSshKey(text: string): Reading {
  try {
    return sshKey(text);
  } catch {
    return { holds: true, facts: {} };
  }
}

/** INI sections holding any of `keys`: AWS credentials, PyPI repositories, my.cnf clients. */
export function iniSections(text: string, keys: RegExp): Reading {
  let sections = 0;
  let current = false;
  let holding = false;
  for (const l of lines(text)) {
    if (/^\[.+\]$/.test(l)) {
      current = false;
      continue;
    }
    const key = /^([A-Za-z0-9_.-]+)\s*[=:]/.exec(l)?.[1];
    if (key && keys.test(key) && !current) {
      current = true;
      holding = true;
      sections += 1;
    }
  }
  return holding ? { holds: true, facts: { sections } } : none;
}

/** `~/.npmrc`, `.netrc`-like files: lines carrying a token. */
export function tokenLines(text: string, re: RegExp, name = "tokens"): Reading {
  const n = count(text, re);
  return n > 0 ? { holds: true, facts: { [name]: n } } : none;
}

/** `machine <host> login … password …` entries, and whether Heroku's API is one of them. */
export function netrc(text: string): Reading {
  const words = text.split(/\s+/);
  const machines = words.filter((w) => w === "machine" || w === "default").length;
  return machines > 0 ? { holds: true, facts: { machines, heroku: words.includes("api.heroku.com") } } : none;
}

/** gh's hosts.yml: one top-level key per host; the token may be in the keyring instead. */
export function ghHosts(text: string): Reading {
  const hosts = text.split(/\r?\n/).filter((l) => /^[^\s#][^:]*:\s*$/.test(l)).length;
  return hosts > 0 ? { holds: true, facts: { hosts, tokenInFile: /^\s+oauth_token:\s*\S/m.test(text) } } : none;
}

/** A kubeconfig: contexts and the users that hold credentials. */
export function kubeconfig(text: string): Reading {
  const section = (name: string) => {
    const m = new RegExp(`^${name}:\\s*\\n((?:[ \\t-].*\\n?)*)`, "m").exec(text);
    return m ? (m[1] ?? "").split("\n").filter((l) => /^-\s|^\s{0,2}-\s+name:/.test(l)).length : 0;
  };
  const users = section("users");
  return users > 0 ? { holds: true, facts: { users, contexts: section("contexts") } } : none;
}

function json(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isRecord(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

const size = (v: unknown) => (typeof v === "object" && v !== null ? Object.keys(v).length : 0);

export function dockerConfig(text: string): Reading {
  const d = json(text);
  if (!d) return none;
  const registries = size(d.auths);
  const helpers = size(d.credHelpers) + (typeof d.credsStore === "string" ? 1 : 0);
  return registries + helpers > 0 ? { holds: true, facts: { registries, helpers } } : none;
}

/** A JSON file that holds a credential when any of `keys` appears at any depth (values are never kept). */
export function jsonWithKeys(text: string, keys: RegExp): Reading {
  const d = json(text);
  if (!d) return none;
  let found = 0;
  const walk = (v: unknown, depth: number) => {
    if (depth > 8 || typeof v !== "object" || v === null) return;
    for (const [k, x] of Object.entries(v)) {
      if (keys.test(k) && typeof x === "string" && x.length > 0) found += 1;
      walk(x, depth + 1);
    }
  };
  walk(d, 0);
  return found > 0 ? { holds: true, facts: { secrets: found } } : none;
}

/** Any non-empty file is the credential (a token file, a database of tokens). */
export function whole(bytes: Uint8Array): Reading {
  return bytes.length > 0 ? { holds: true, facts: {} } : none;
}

/** `.env`: how many variables it sets. */
export function dotenv(text: string): Reading {
  const variables = count(text, /^(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*\s*=/);
  return variables > 0 ? { holds: true, facts: { variables } } : none;
}

/** `~/.pgpass`: one line per server a password is kept for. */
export function pgpass(text: string): Reading {
  return tokenLines(text, /^[^#].*:.*:.*:.*:/, "entries");
}
