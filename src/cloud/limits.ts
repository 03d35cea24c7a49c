// Rate limits and fairness, per process: token buckets per address on the public routes (checked first, before any
// query), per credential, per machine and per workspace on the rest, and a lane per workspace that bounds how many of
// its requests run at once, so one tenant's flood queues behind itself and never in front of another's. A refusal is a
// 429 with Retry-After. Several server processes each hold their own buckets: the limits below are per process.
import { HttpError } from "./http.ts";

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
  batch: { burst: 30, perSecond: 2 },
  pull: { burst: 30, perSecond: 0.5 },
  /** Events stored per workspace (a batch costs its rows). */
  rows: { burst: 20_000, perSecond: 500 },
  /** The console, per address; signing in (each start a stored row) far less. */
  console: { burst: 240, perSecond: 40 },
  signIn: { burst: 10, perSecond: 0.2 },
} as const satisfies Record<string, Rate>;

/** How many of one workspace's requests run at once in this process, and how many more may wait for a turn. */
export const LANE_RUNNING = 4;
export const LANE_WAITING = 16;

interface Bucket {
  tokens: number;
  at: number;
}

/** Token buckets by key, refilled from the clock passed in; full ones are forgotten once many keys are held. */
export class Buckets {
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

interface Lane {
  running: number;
  readonly waiting: (() => void)[];
}

/**
 * A lane per key (a workspace): at most `running` of its requests at once, `waiting` more in line, and the rest
 * refused at once rather than queued without end, so a flood ends when it stops instead of minutes later.
 */
export class Lanes {
  readonly #lanes = new Map<string, Lane>();
  readonly #running: number;
  readonly #waiting: number;

  constructor(running = LANE_RUNNING, waiting = LANE_WAITING) {
    this.#running = running;
    this.#waiting = waiting;
  }

  /** A turn in `key`'s lane (call what it returns when done), or undefined when the lane is full. */
  async enter(key: string): Promise<(() => void) | undefined> {
    let lane = this.#lanes.get(key);
    if (!lane) {
      lane = { running: 0, waiting: [] };
      this.#lanes.set(key, lane);
    }
    const l = lane;
    if (l.running >= this.#running) {
      if (l.waiting.length >= this.#waiting) return undefined;
      await new Promise<void>((resolve) => l.waiting.push(resolve));
    } else l.running += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = l.waiting.shift();
      // The turn passes straight to the next in line; only an empty line gives it back.
      if (next) next();
      else {
        l.running -= 1;
        if (l.running === 0) this.#lanes.delete(key);
      }
    };
  }
}

/** What every request of one server shares: its buckets, its lanes, and how often a refused credential is audited. */
export interface Guard {
  readonly buckets: Buckets;
  readonly lanes: Lanes;
  /** Per address: when the last refusal was audited, and how many were refused since. */
  readonly refusedSeen: Map<string, { at: number; count: number }>;
}

export function newGuard(now: () => number, scale = 1): Guard {
  return { buckets: new Buckets(now, scale), lanes: new Lanes(), refusedSeen: new Map() };
}
