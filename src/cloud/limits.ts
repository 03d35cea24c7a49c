// Rate limits and fairness, per process: token buckets per address on the public routes (checked first, before any
// query), per credential, per machine and per workspace on the rest, and a fair gate that hands turns at the database
// to workspaces in rotation, so one tenant's flood queues behind itself and never in front of another's. A refusal is
// a 429 with Retry-After. Several server processes each hold their own buckets: the limits below are per process.
import { HttpError } from "./http-error.ts";
import { DEFAULT_POOL } from "./store/db.ts";

export interface Rate {
  /** What may be spent at once. */
  readonly burst: number;
  /** What comes back each second. */
  readonly perSecond: number;
}

/** The limits, by what they count. Multiplied by the server's scale (a load test raises it; nothing lowers it). */
export const RATES = {
  /** `GET /v1/health`, per address. */
  health: { burst: 60, perSecond: 20 },
  /** `POST /v1/devices`: a code per request, each a stored row; per address, and for the whole process. */
  deviceRequest: { burst: 10, perSecond: 1 / 6 },
  deviceRequestAll: { burst: 100, perSecond: 2 },
  /** `POST /v1/devices/token`, per address: every machine logging in polls it. */
  devicePoll: { burst: 120, perSecond: 20 },
  /**
   * The inbound route, per address before the signature is checked (high: one integration provider delivers for every
   * workspace from few addresses), and per workspace and source after it: where one tenant's flood is held.
   */
  inbound: { burst: 1_000, perSecond: 200 },
  inboundSource: { burst: 60, perSecond: 10 },
  /** A signature or a credential that did not hold, per address: guessing is slow. */
  refused: { burst: 20, perSecond: 0.2 },
  /** A person's or an operator's token, and a signed-in session. */
  caller: { burst: 120, perSecond: 20 },
  /** Everything a workspace's callers and machines ask, together. */
  workspace: { burst: 600, perSecond: 100 },
  /** A machine's heartbeat, its batches and its pulls. */
  heartbeat: { burst: 30, perSecond: 0.5 },
  batch: { burst: 10, perSecond: 1 },
  pull: { burst: 30, perSecond: 0.5 },
  /**
   * Events stored (a batch costs its rows), per machine and per workspace: a machine a week offline catches up in a
   * few passes, a looping one is slowed to far past any pace an agent keeps, and a workspace's fleet together too.
   */
  machineRows: { burst: 1_000, perSecond: 20 },
  rows: { burst: 5_000, perSecond: 500 },
  /** The console, per address; signing in (each start a stored row) far less. */
  console: { burst: 240, perSecond: 40 },
  signIn: { burst: 10, perSecond: 0.2 },
} as const satisfies Record<string, Rate>;

/**
 * How many requests run at once in this process, how many of those turns one workspace can never take (kept for the
 * others, so a quiet tenant never waits behind a loud one's turns), and how many more of one workspace's may wait.
 */
const GATE_RUNNING = 8;
const GATE_KEPT = 2;
const LINE_WAITING = 32;

interface Bucket {
  tokens: number;
  at: number;
}

/** Token buckets by key, refilled from the clock passed in; full ones are forgotten once many keys are held. */
class Buckets {
  readonly #held = new Map<string, Bucket>();
  readonly #now: () => number;
  readonly #scale: number;

  constructor(now: () => number, scale = 1) {
    this.#now = now;
    this.#scale = Math.max(1, scale);
  }

  #level(key: string, rate: Rate): { bucket: Bucket; burst: number; perMs: number } {
    const burst = rate.burst * this.#scale;
    const perMs = (rate.perSecond * this.#scale) / 1000;
    const now = this.#now();
    let bucket = this.#held.get(key);
    if (!bucket) {
      if (this.#held.size > 100_000) this.#sweep();
      bucket = { tokens: burst, at: now };
      this.#held.set(key, bucket);
    }
    bucket.tokens = Math.min(burst, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
    bucket.at = now;
    return { bucket, burst, perMs };
  }

  /** Spends `cost` from `key`'s bucket: 0 when spent, else the seconds until it could be (nothing is spent then). */
  take(key: string, rate: Rate, cost = 1): number {
    const { bucket, burst, perMs } = this.#level(key, rate);
    const need = Math.min(cost, burst);
    if (bucket.tokens >= need) {
      bucket.tokens -= need;
      return 0;
    }
    return Math.max(1, Math.ceil((need - bucket.tokens) / perMs / 1000));
  }

  /** Whether `key` could spend `cost` now, spending nothing: 0, or the seconds to wait. */
  peek(key: string, rate: Rate, cost = 1): number {
    const { bucket, burst, perMs } = this.#level(key, rate);
    const need = Math.min(cost, burst);
    return bucket.tokens >= need ? 0 : Math.max(1, Math.ceil((need - bucket.tokens) / perMs / 1000));
  }

  /** Drops buckets that refilled completely: they hold nothing a fresh one would not. */
  #sweep(): void {
    const now = this.#now();
    for (const [k, b] of this.#held) if (now - b.at > 600_000) this.#held.delete(k);
  }
}

/** The 429 a spent bucket answers, with when to come back. */
export function tooMany(what: string, retryAfterS: number): HttpError {
  return new HttpError(429, "rate_limited", `too many requests ${what}: try again in ${retryAfterS}s`, {
    retryAfter: retryAfterS,
  });
}

/** Throws the 429 unless `key` may spend `cost`. */
export function spend(b: Buckets, key: string, rate: Rate, what: string, cost = 1): void {
  const wait = b.take(key, rate, cost);
  if (wait > 0) throw tooMany(what, wait);
}

/**
 * Turns at the database, shared fairly: at most `running` requests of this process run at once, and at most `each` of
 * one workspace's; past that each waits in its workspace's line, and a freed turn goes to the next workspace in
 * rotation that may take one, never to whoever queued most. A quiet tenant's request waits for one turn however long
 * a loud one's line is, and a line longer than `waiting` is refused at once, so a flood ends when it stops.
 */
export class FairGate {
  readonly #running: number;
  readonly #each: number;
  readonly #waiting: number;
  readonly #lines = new Map<string, (() => void)[]>();
  readonly #held = new Map<string, number>();
  /** Workspaces with someone waiting, in the order their turn comes. */
  readonly #rotation: string[] = [];
  #busy = 0;

  constructor(running = GATE_RUNNING, each = GATE_RUNNING - GATE_KEPT, waiting = LINE_WAITING) {
    this.#running = running;
    this.#each = Math.min(each, running);
    this.#waiting = waiting;
  }

  /** A turn for `key` (call what it returns when done), or undefined when its line is full. */
  async enter(key: string): Promise<(() => void) | undefined> {
    const mine = this.#held.get(key) ?? 0;
    if (this.#busy < this.#running && mine < this.#each && !this.#lines.has(key)) this.#take(key);
    else {
      let line = this.#lines.get(key);
      if (!line) {
        line = [];
        this.#lines.set(key, line);
        this.#rotation.push(key);
      }
      if (line.length >= this.#waiting) return undefined;
      const l = line;
      await new Promise<void>((resolve) => l.push(resolve));
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#busy -= 1;
      const n = (this.#held.get(key) ?? 1) - 1;
      if (n > 0) this.#held.set(key, n);
      else this.#held.delete(key);
      this.#next();
    };
  }

  #take(key: string): void {
    this.#busy += 1;
    this.#held.set(key, (this.#held.get(key) ?? 0) + 1);
  }

  /** Hands free turns to the lines in rotation, each to a workspace still under its share. */
  #next(): void {
    for (let tried = 0; this.#busy < this.#running && tried < this.#rotation.length; ) {
      const key = this.#rotation.shift();
      if (key === undefined) return;
      const line = this.#lines.get(key) ?? [];
      if ((this.#held.get(key) ?? 0) >= this.#each || line.length === 0) {
        if (line.length > 0) this.#rotation.push(key);
        else this.#lines.delete(key);
        tried += 1;
        continue;
      }
      const wake = line.shift();
      if (line.length > 0) this.#rotation.push(key);
      else this.#lines.delete(key);
      this.#take(key);
      wake?.();
      tried = 0;
    }
  }
}

/** What every request of one server shares: its buckets, its lanes, and how often a refused credential is audited. */
export interface Guard {
  readonly buckets: Buckets;
  readonly gate: FairGate;
  /** Per address: when the last refusal was audited, and how many were refused since. */
  readonly refusedSeen: Map<string, { at: number; count: number }>;
  /** What every limit was multiplied by, for the counts a handler keeps in the database itself. */
  readonly scale: number;
}

/** A scale above 1 (a load test's fleet from one address) lengthens the lines too; how many run at once stays. */
export function newGuard(now: () => number, scale = 1, pool = DEFAULT_POOL): Guard {
  const waiting = LINE_WAITING * Math.max(1, Math.round(scale));
  // Fewer turns than connections: a request still being identified always finds one free.
  const running = Math.max(2, Math.min(GATE_RUNNING, pool - 2));
  return {
    buckets: new Buckets(now, scale),
    gate: new FairGate(running, Math.max(1, running - GATE_KEPT), waiting),
    refusedSeen: new Map(),
    scale: Math.max(1, scale),
  };
}
