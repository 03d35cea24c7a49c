// `memnox login`: the one deliberate step towards the cloud. A key pair is made here, the public half goes with a
// device-code request (RFC 8628), somebody with access approves the code, and the poll that sees it gets this
// machine's token. account.json (0600) then holds the workspace, the machine id, the token and the private key.
import { hostname } from "node:os";
import type { Mode } from "../core/effect.ts";
import { MemnoxError } from "../core/errors.ts";
import { isRecord } from "../core/record.ts";
import { newKeyPair, signWith } from "../ledger/sign.ts";
import type { Paths } from "../ports/paths.ts";
import { readConfig } from "../state/config.ts";
import { type Account, readAccount, writeAccount } from "./account.ts";
import { call, checkedBase, unexpected } from "./transport.ts";

export const DEFAULT_URL = "https://api.memnox.com";

interface DeviceCode {
  readonly deviceCode: string;
  readonly userCode: string;
  readonly verificationUri: string;
  readonly verificationUriComplete: string;
  readonly expiresIn: number;
  readonly interval: number;
}

interface LoginDeps {
  readonly paths: Paths;
  readonly version: string;
  readonly platform: string;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Told the code and where to enter it, before the wait starts. */
  readonly show: (code: DeviceCode) => void;
}

interface LoginOptions {
  readonly url: string;
  readonly mode?: Mode;
}

function codeOf(v: unknown): DeviceCode {
  const o = isRecord(v) ? v : {};
  const s = (k: string) => (typeof o[k] === "string" ? (o[k] as string) : "");
  const n = (k: string, d: number) => (typeof o[k] === "number" && (o[k] as number) > 0 ? (o[k] as number) : d);
  if (!s("device_code") || !s("user_code") || !s("verification_uri"))
    throw new MemnoxError("refused", "the control plane's answer is not a device code");
  return {
    deviceCode: s("device_code"),
    userCode: s("user_code"),
    verificationUri: s("verification_uri"),
    verificationUriComplete: s("verification_uri_complete") || s("verification_uri"),
    expiresIn: n("expires_in", 900),
    interval: n("interval", 5),
  };
}

/** Enrols this machine and writes account.json; refuses when it is already enrolled (logout first). */
export async function login(deps: LoginDeps, opts: LoginOptions): Promise<Account> {
  const base = checkedBase(opts.url).href.replace(/\/+$/, "");
  const existing = readAccount(deps.paths.account);
  if (existing)
    throw new MemnoxError(
      "conflict",
      `this machine is already enrolled in workspace ${existing.workspace.name} as ${existing.machineId}`,
      "memnox logout first, to enrol it somewhere else",
    );
  const keys = newKeyPair();
  const mode = opts.mode ?? readConfig(deps.paths.config).mode;
  const asked = await call(base, "POST", "/v1/devices", {
    json: { publicKey: keys.publicKey, hostname: hostname(), version: deps.version, platform: deps.platform, mode },
  });
  if (asked.status !== 200) throw unexpected("asking for a login code", asked);
  const code = codeOf(asked.json);
  deps.show(code);
  const token = await poll(deps, base, code);
  const account: Account = {
    version: 1,
    url: base,
    org: token.org,
    workspace: token.workspace,
    machineId: token.machineId,
    token: token.accessToken,
    owner: token.owner,
    privateKey: Buffer.from(keys.secret).toString("hex"),
    publicKey: keys.publicKey,
    enrolledAt: new Date(deps.now()).toISOString(),
  };
  // The key signs; proving it does before it is kept means a broken key is found now, not on the first batch.
  signWith(keys.secret, new Uint8Array([0]));
  writeAccount(deps.paths.account, account);
  return account;
}

interface Granted {
  readonly accessToken: string;
  readonly machineId: string;
  readonly workspace: { readonly id: string; readonly name: string };
  readonly org: { readonly id: string; readonly name: string };
  readonly owner: string | null;
}

async function poll(deps: LoginDeps, base: string, code: DeviceCode): Promise<Granted> {
  const deadline = deps.now() + code.expiresIn * 1000;
  let interval = code.interval;
  for (;;) {
    await deps.sleep(interval * 1000);
    if (deps.now() > deadline)
      throw new MemnoxError("refused", "the code expired before anybody approved it", "memnox login again");
    const r = await call(base, "POST", "/v1/devices/token", {
      json: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: code.deviceCode },
      tolerate429: true,
    });
    // Told to wait: as slow_down, for as long as it said.
    if (r.status === 429) {
      interval = Math.max(interval, Number(r.headers.get("retry-after")) || interval + 5);
      continue;
    }
    const o = isRecord(r.json) ? r.json : {};
    if (r.status === 200 && typeof o.access_token === "string" && typeof o.machine_id === "string") {
      const named = (v: unknown) => {
        const x = isRecord(v) ? v : {};
        return { id: String(x.id ?? ""), name: String(x.name ?? "") };
      };
      return {
        accessToken: o.access_token,
        machineId: o.machine_id,
        workspace: named(o.workspace),
        org: named(o.org),
        owner: typeof o.owner === "string" ? o.owner : null,
      };
    }
    switch (o.error) {
      case "authorization_pending":
        continue;
      case "slow_down":
        interval = typeof o.interval === "number" ? o.interval : interval + 5;
        continue;
      case "access_denied":
        throw new MemnoxError("refused", "the enrolment was refused in the workspace");
      case "expired_token":
        throw new MemnoxError("refused", "the code expired before anybody approved it", "memnox login again");
      default:
        throw unexpected("waiting for the approval", r);
    }
  }
}
