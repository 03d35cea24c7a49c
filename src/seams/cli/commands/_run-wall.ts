// The kernel wall around an agent `memnox run --untrusted` starts: the description (src/wall) for this session,
// raised by the kernel this machine has: Landlock through `memnox wall` (which restricts itself and execs the
// agent), seatbelt through sandbox-exec. A plain run only says whether the machine's guard stands around what the
// agent's seams start.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { MemnoxError } from "../../../core/errors.ts";
import { pingDaemon } from "../../../gate/remote/client.ts";
import { createArgsDigest } from "../../../ledger/digest.ts";
import type { Context } from "../../../ports/context.ts";
import { addFact, liftFacts } from "../../../state/overlays.ts";
import { beneath, untrustedWall } from "../../../wall/description.ts";
import { realDisk } from "../../../wall/disk.ts";
import { untrustedInput } from "../../../wall/facts/gather.ts";
import {
  readOsGuard,
  removeSessionWall,
  type SessionWall,
  sessionWallFile,
  writeSessionWall,
} from "../../../wall/files.ts";
import { canHold, claims, costs, type Kernel, kernelName } from "../../../wall/held.ts";
import { providerHosts } from "../../../wall/hosts.ts";
import { WALL_VAR } from "../../../wall/inside.ts";
import { type LandlockPlan, landlockPlan } from "../../../wall/landlock.ts";
import { abiCap, probeKernel, SANDBOX_EXEC } from "../../../wall/probe.ts";
import { noGuardScreen, wallScreen } from "../../../wall/screen.ts";
import { seatbeltProfile } from "../../../wall/seatbelt.ts";

const FACT_MS = 24 * 60 * 60_000;

export interface WallRun {
  readonly session: string;
  readonly agent: string;
  /** The agent's program, by its absolute path. */
  readonly program: string;
  /** Its name as typed (`claude`), which says whose state it keeps and whose model it reaches. */
  readonly name: string;
  readonly root: string;
  readonly untrusted: boolean;
  /** false: `--no-guard`. */
  readonly guard: boolean;
}

/** What stays up for the run's length: the untrusted facts and, with no daemon, the run's own socket. */
export interface Prepared {
  readonly kernel: Kernel;
  close(): Promise<void>;
}

/**
 * Before the agent's proxy exists: refuse what cannot be walled, note the session as untrusted (its outward and
 * destructive actions ask, its proxy passes registries and its model provider), and when no daemon answers, answer
 * the seams inside the wall from this process: from inside, the ledger and held answers cannot be written.
 */
export async function prepareWall(ctx: Context, r: WallRun): Promise<Prepared> {
  const kernel = await probeKernel(process.platform, abiCap(ctx.env.MEMNOX_WALL_ABI));
  if (!r.untrusted) return { kernel, close: async () => {} };
  if (r.guard && !canHold(kernel)) {
    throw new MemnoxError(
      "refused",
      `memnox run --untrusted cannot start: ${kernelName(kernel)}, so no kernel here can hold the wall`,
      "memnox run --untrusted --no-guard runs it with only the seams asking, if that is what you choose",
    );
  }
  if (beneath(ctx.paths.home, r.root)) {
    throw new MemnoxError(
      "refused",
      `memnox run --untrusted keeps the agent in one repository, and \`${r.root}\` holds your home directory`,
      "start it inside the repository you want it to work in",
    );
  }
  const overlays = ctx.paths.overlays;
  const now = ctx.clock.now();
  const said = "started with memnox run --untrusted";
  addFact(overlays, { kind: "untrusted", subject: r.session, reason: said, nowMs: now, forMs: FACT_MS });
  const through = providerHosts(r.name, ctx.env);
  for (const host of through) {
    addFact(overlays, {
      kind: "untrusted-host",
      subject: `${r.session} ${host}`,
      reason: said,
      nowMs: now,
      forMs: FACT_MS,
    });
  }
  const daemon = r.guard ? await ownDaemon(ctx) : undefined;
  return {
    kernel,
    async close() {
      const at = ctx.clock.now();
      liftFacts(overlays, "untrusted", r.session, "memnox run", at);
      for (const host of through) liftFacts(overlays, "untrusted-host", `${r.session} ${host}`, "memnox run", at);
      await daemon?.close();
    },
  };
}

/** A daemon for this run's length, in this process, when none answers: the seams inside record through it. */
async function ownDaemon(ctx: Context): Promise<{ close(): Promise<void> } | undefined> {
  if (await pingDaemon(ctx.paths.sock)) return undefined;
  const { serve } = await import("../../../daemon/serve.ts");
  let end = () => {};
  const until = new Promise<void>((resolve) => {
    end = resolve;
  });
  let ready = () => {};
  const up = new Promise<void>((resolve) => {
    ready = resolve;
  });
  // The keeping passes a daemon runs: a hook or wrapped server the session takes out of its own state is put back.
  const { agentHooksPass } = await import("../../../daemon/passes/hooks.ts");
  const { mcpServersPass } = await import("../../../daemon/passes/mcp-servers.ts");
  const passes = [agentHooksPass(), mcpServersPass];
  const served = serve(ctx, { passes, egressPort: 0, until, embedded: true, onReady: ready });
  await Promise.race([up, served]);
  ctx.io.err(
    `memnox: no daemon answers, so this run answers the seams inside the wall itself until it ends (${ctx.paths.daemonLog})\n`,
  );
  return {
    async close() {
      end();
      await served;
    },
  };
}

export interface Raised {
  /** What to start instead of the agent's own argv. */
  readonly argv: readonly string[];
  /** What the agent's environment gains. */
  readonly env: Record<string, string>;
  close(): void;
}

/**
 * The machine's guard stands around what the seams start (the governed shell the agent's commands run in, each
 * interceptor's program), not around the agent itself: an agent rewrites its own files in home by rename, and a
 * Landlock grant on a file does not follow it to the new one.
 */
function guardNote(ctx: Context, kernel: Kernel): void {
  let written = false;
  try {
    written = readOsGuard(ctx.paths) !== undefined;
  } catch {
    written = true;
  }
  if (!written) return;
  ctx.io.err(
    canHold(kernel)
      ? `memnox: the machine's kernel guard (${kernelName(kernel)}) holds every program this agent's shell and interceptors start\n`
      : `memnox: a kernel guard is written but ${kernelName(kernel)}: the governed shell and the interceptors refuse to start programs (memnox protect --revert-os-guard)\n`,
  );
}

/**
 * What the seams inside read under MEMNOX_HOME is made before the wall is planned: a directory the planner walks
 * (memnox's home, for its signing key) grants only what is there, so one made later could not be read from inside.
 */
function settleMemnoxHome(ctx: Context, file: string): void {
  const p = ctx.paths;
  for (const dir of [
    dirname(file),
    p.keys,
    p.pending,
    p.notice,
    p.mcp,
    join(p.root, "sessions"),
    join(p.root, "cache"),
  ])
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The seams inside digest arguments with the machine's key, which they could not make there.
  createArgsDigest(p)("");
}

function proxyOf(env: Record<string, string>): { url: string; port: number } | undefined {
  const url = env.HTTP_PROXY;
  if (!url) return undefined;
  const port = Number(new URL(url).port);
  return Number.isInteger(port) && port > 0 ? { url, port } : undefined;
}

/**
 * Once the proxy listens: the description for this session, what the kernel holds of it on the start screen, and
 * the argv that raises it. Undefined when no wall applies (no `--untrusted` and no machine guard, or `--no-guard`).
 */
export function raiseWall(
  ctx: Context,
  r: WallRun,
  prepared: Prepared,
  egress: Record<string, string>,
): Raised | undefined {
  const { kernel } = prepared;
  if (!r.guard) {
    ctx.io.err(
      r.untrusted
        ? noGuardScreen(r.session, r.agent, kernel)
        : "memnox: --no-guard: a run without --untrusted has no wall of its own to leave out; the machine's guard, if written, stays on what the seams start (memnox protect --revert-os-guard)\n",
    );
    return undefined;
  }
  if (!r.untrusted) {
    guardNote(ctx, kernel);
    return undefined;
  }
  const proxy = proxyOf(egress);
  if (!proxy) {
    throw new MemnoxError(
      "refused",
      "memnox run --untrusted cannot start without its egress proxy: the wall lets TCP reach nothing else",
    );
  }
  const wall = untrustedWall(untrustedInput(ctx, { root: r.root, program: r.name, proxy }));
  const file = sessionWallFile(ctx.paths, r.session);
  settleMemnoxHome(ctx, file);
  const plan: LandlockPlan | undefined =
    kernel.kind === "landlock" ? landlockPlan(wall, kernel.abi, realDisk) : undefined;
  const seatbelt = kernel.kind === "seatbelt" ? file.replace(/\.json$/, ".sb") : undefined;
  const record: SessionWall = {
    version: 1,
    session: r.session,
    agent: r.agent,
    startedAt: new Date(ctx.clock.now()).toISOString(),
    kernel,
    wall,
    claims: claims(wall, kernel),
    costs: costs(wall, plan),
    ...(plan ? { plan } : {}),
    ...(seatbelt ? { seatbelt } : {}),
  };
  writeSessionWall(ctx.paths, record);
  if (seatbelt) writeFileSync(seatbelt, seatbeltProfile(wall), { mode: 0o600 });
  ctx.io.err(wallScreen({ ...record, claims: record.claims, costs: record.costs }));
  const argv = seatbelt ? [SANDBOX_EXEC, "-f", seatbelt, r.program] : [...ctx.selfArgv, "wall", file, "--", r.program];
  // Inside the wall nothing reaches the network but the proxy, so nothing may skip it either.
  const env: Record<string, string> = { [WALL_VAR]: file, ...(r.untrusted ? { NO_PROXY: "", no_proxy: "" } : {}) };
  return { argv, env, close: () => removeSessionWall(ctx.paths, r.session) };
}
