// A real `memnox cloud serve` process on a test database, awaited on its readiness line; and a small API client.
import { join } from "node:path";
import type { Db } from "../../src/cloud/store/db.ts";
import { mintToken } from "../../src/cloud/store/people.ts";
import { newKeyPair } from "../../src/ledger/sign.ts";
import { compiledBinary, runBinary } from "./binary.ts";
import type { Browser } from "./console.ts";
import { tempDir } from "./fs.ts";
import { hermeticEnv } from "./home.ts";

const ROOT = join(import.meta.dir, "..", "..");

export interface RunningCloud extends AsyncDisposable {
  readonly url: string;
  readonly pid: number;
  stderr(): string;
  stop(): Promise<number>;
}

export interface CloudOptions {
  /** Run from source instead of the compiled binary. */
  readonly source?: boolean;
  readonly args?: readonly string[];
  /** A port chosen beforehand (an OpenID provider must know the console's callback before it starts). */
  readonly port?: number;
  readonly env?: Readonly<Record<string, string>>;
  /** Serve from a private cluster under this directory (`--data`) instead of the database URL. */
  readonly data?: string;
}

/** `memnox cloud serve --db <url> --port 0 --device-interval 1`, with a HOME of its own. */
export async function startCloud(db: string, opts: CloudOptions = {}): Promise<RunningCloud> {
  const home = tempDir("memnox-cloud-home");
  const argv = opts.source ? [process.execPath, join(ROOT, "bin", "memnox.ts")] : [await compiledBinary()];
  const env = hermeticEnv({ HOME: home.path, MEMNOX_HOME: join(home.path, ".memnox"), ...(opts.env ?? {}) });
  const child = Bun.spawn(
    [
      ...argv,
      "cloud",
      "serve",
      ...(opts.data ? ["--data", opts.data] : ["--db", db]),
      "--port",
      String(opts.port ?? 0),
      "--device-interval",
      "1",
      ...(opts.args ?? []),
    ],
    { env, cwd: home.path, stdin: "ignore", stdout: "pipe", stderr: "pipe" },
  );
  let said = "";
  const decoder = new TextDecoder();
  const ready = new Promise<string | undefined>((resolve) => {
    void (async () => {
      for await (const chunk of child.stderr) {
        said += decoder.decode(chunk, { stream: true });
        const m = /serving (http:\/\/\S+)/.exec(said);
        if (m?.[1]) resolve(m[1]);
      }
      resolve(undefined);
    })();
  });
  const url = await ready;
  if (!url) throw new Error(`memnox cloud serve did not start (exit ${await child.exited}): ${said}`);
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    const code = await child.exited;
    home[Symbol.dispose]();
    return code;
  };
  return { url, pid: child.pid, stderr: () => said, stop, [Symbol.asyncDispose]: async () => void (await stop()) };
}

export interface ApiReply {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON, typed as JSON.parse types it, so a test reads the fields it asserts on. */
  readonly body: ReturnType<typeof JSON.parse>;
}

/** One call to the API as a script would make it. */
export async function api(
  url: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<ApiReply> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined && method !== "GET" && method !== "HEAD") {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const r = await fetch(`${url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await r.text();
  let parsed: ReturnType<typeof JSON.parse> = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (a page, a 304)
  }
  return { status: r.status, headers: r.headers, body: parsed };
}

export interface CountingProxy extends AsyncDisposable {
  readonly url: string;
  /** TCP connections accepted so far. */
  connections(): number;
  /** Bytes clients sent through it so far: a request on a kept-alive connection counts here too. */
  bytesIn(): number;
  stop(): void;
}

/** A TCP relay on loopback to `target` that counts every connection made to it: what "no call at all" is measured by. */
export function countingProxy(target: string): CountingProxy {
  const to = new URL(target);
  let count = 0;
  let bytes = 0;
  type Side = { peer?: import("bun").Socket<Side>; pending: Uint8Array[] };
  const server = Bun.listen<Side>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(client) {
        count += 1;
        client.data = { pending: [] };
        void Bun.connect<Side>({
          hostname: to.hostname,
          port: Number(to.port),
          socket: {
            open(up) {
              up.data = { peer: client, pending: [] };
              client.data.peer = up;
              for (const chunk of client.data.pending) up.write(chunk);
              client.data.pending = [];
            },
            data(up, chunk) {
              up.data.peer?.write(chunk);
            },
            close(up) {
              up.data.peer?.end();
            },
            error(up) {
              up.data.peer?.end();
            },
          },
        }).catch(() => client.end());
      },
      data(client, chunk) {
        bytes += chunk.length;
        if (client.data.peer) client.data.peer.write(chunk);
        else client.data.pending.push(new Uint8Array(chunk));
      },
      close(client) {
        client.data.peer?.end();
      },
      error(client) {
        client.data.peer?.end();
      },
    },
  });
  const stop = () => server.stop(true);
  return {
    url: `http://127.0.0.1:${server.port}`,
    connections: () => count,
    bytesIn: () => bytes,
    stop,
    [Symbol.asyncDispose]: async () => stop(),
  };
}

/** TCP connections the process holds in ESTABLISHED state, read from /proc: outgoing calls leave exactly this trace. */
export function establishedTcp(pid: number): number {
  const { readdirSync, readFileSync, readlinkSync } = require("node:fs") as typeof import("node:fs");
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m?.[1]) inodes.add(m[1]);
    } catch {
      // closed while we looked
    }
  }
  let n = 0;
  for (const table of ["tcp", "tcp6"]) {
    let text = "";
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // st 01 is ESTABLISHED; the inode is the tenth column.
      if (cols[3] === "01" && cols[9] && inodes.has(cols[9])) n += 1;
    }
  }
  return n;
}

/**
 * A rule set published the only way there is: proposed (with `token`), then approved by a person signed in to the
 * console (`approver`, the proposer's own session where the organization has one admin). Returns the approval's reply
 * and the bundle hash then in force.
 */
export async function publish(
  url: string,
  token: string,
  source: string,
  opts: { approver: Browser; headers?: Record<string, string> },
): Promise<{ proposal: ReturnType<typeof JSON.parse>; hash: string }> {
  const proposed = await api(url, "POST", "/v1/policies/proposals", {
    token,
    raw: source,
    headers: opts.headers ?? {},
  });
  if (proposed.status !== 201)
    throw new Error(`the proposal was refused (${proposed.status}): ${JSON.stringify(proposed.body)}`);
  const approved = await opts.approver.post("/waiting", { _action: "approve-proposal", id: proposed.body.id });
  if (approved.status !== 303) throw new Error(`the approval was refused (${approved.status}): ${approved.html}`);
  const shown = await api(url, "GET", `/v1/policies/proposals/${proposed.body.id}`, { token });
  if (shown.body.status !== "published")
    throw new Error(`the proposal was not published: ${JSON.stringify(shown.body)}`);
  const bundle = await api(url, "GET", "/v1/bundle", { token });
  return { proposal: shown.body, hash: bundle.body.hash };
}

/**
 * A member with the role given and a token of their own, written to the database directly: what an admin's add, a
 * second admin's confirmation, the member's sign-in and their own mint would make, for tests about something else.
 */
export async function memberWithToken(
  db: Db,
  orgId: string,
  email: string,
  role: "viewer" | "reviewer" | "admin",
): Promise<{ readonly id: string; readonly token: string }> {
  const id = `mem_${crypto.randomUUID().replace(/-/g, "").slice(0, 18)}`;
  await db`INSERT INTO members (id, org_id, email, role, created_by) VALUES (${id}, ${orgId}, ${email}, ${role}, 'test')`;
  const { token } = await mintToken(db, { orgId, kind: "person", memberId: id, name: "test", createdBy: email });
  return { id, token };
}

/** An operator token written to the database directly (an admin mints one signed in). */
export async function operatorToken(
  db: Db,
  orgId: string,
  name: string,
  role: "viewer" | "reviewer" | "admin",
  createdBy = "admin@acme.dev",
): Promise<string> {
  return (await mintToken(db, { orgId, kind: "operator", role, name, createdBy })).token;
}

/** The organization `memnox cloud init` made on `db`, and its first admin's member id. */
export async function acmeIds(db: Db, org = "acme"): Promise<{ readonly orgId: string; readonly adminId: string }> {
  const [r]: { org_id: string; id: string }[] = await db`
    SELECT m.org_id, m.id FROM members m JOIN orgs o ON o.id = m.org_id WHERE o.name = ${org} ORDER BY m.created_at LIMIT 1`;
  if (!r) throw new Error(`no organization ${org}`);
  return { orgId: r.org_id, adminId: r.id };
}

/** `memnox cloud init --org acme --admin admin@acme.dev` on `db` (the compiled binary, in `env`): the admin's token. */
export async function initAcme(db: string, env: Readonly<Record<string, string>>): Promise<string> {
  const init = await runBinary(
    "memnox",
    ["cloud", "init", "--org", "acme", "--admin", "admin@acme.dev", "--db", db, "--json"],
    { env },
  );
  if (init.code !== 0) throw new Error(`cloud init failed (${init.code}): ${init.stderr}`);
  return JSON.parse(init.stdout).token;
}

/** A machine enrolled as `memnox login` does it (a key pair, a device code an admin's token approves). */
export async function enrolMachine(
  url: string,
  adminToken: string,
): Promise<{ readonly id: string; readonly token: string; readonly secret: Uint8Array }> {
  const keys = newKeyPair();
  const asked = await api(url, "POST", "/v1/devices", { body: { publicKey: keys.publicKey, hostname: "box" } });
  await api(url, "POST", `/v1/devices/${asked.body.user_code}/approve`, { token: adminToken });
  const got = await api(url, "POST", "/v1/devices/token", { body: { device_code: asked.body.device_code } });
  return { id: got.body.machine_id, token: got.body.access_token, secret: keys.secret };
}

/** A Slack slash command's form body as Slack sends it (its fields, in its order), from `user` with `text`. */
export function slashCommandBody(user: string, text: string): string {
  return new URLSearchParams({
    token: "xyzz0WbapA4vBCDEFasx0q6G",
    team_id: "T1DC2JH3J",
    team_domain: "acme",
    channel_id: "C024BE7LR",
    channel_name: "incidents",
    user_id: user,
    user_name: "someone",
    command: "/memnox",
    text,
    api_app_id: "A0KRD7HC3",
    response_url: "https://hooks.slack.com/commands/T1DC2JH3J/397700885554/96rGlfmibIGlgcZRskXaIFfN",
    trigger_id: `${Date.now()}.47445629121.803a0bc887a14d10d2c447fce8b6703c`,
  }).toString();
}
