// What happens around an agent started by `memnox run`: the session on the record, the working-tree milestone,
// and the egress proxy (the daemon's, or one of the run's own). One place, so each wires itself in here.

import { environmentsOf } from "../../../gate/environments.ts";
import { createGate } from "../../../gate/index.ts";
import { CALL_TIMEOUT_MS, daemonClient } from "../../../gate/remote/client.ts";
import type { DeclaredScope } from "../../../gate/scope.ts";
import { noteSessionStart } from "../../../gate/sessions.ts";
import type { Context } from "../../../ports/context.ts";
import type { Env } from "../../../ports/index.ts";
import { milestoneAtRunStart, rewindDeps } from "../../../rewind/index.ts";
import { releaseSession } from "../../../state/leases.ts";
import { egressVariables } from "../../shared/agent-env.ts";

interface RunHookInput {
  readonly session: string;
  readonly agent: string;
  readonly root: string;
  readonly milestone: boolean;
  /** The environment the agent gets, so the run's own proxy rules with the agent's facts. */
  readonly env: Env;
  readonly scope: DeclaredScope;
  readonly role?: string;
}

interface RunHooks {
  /** Returns the variables the agent's environment gains (the egress proxy's). */
  before(): Promise<Record<string, string>>;
  after(exitCode: number, durationMs: number): Promise<void>;
}

interface Proxy {
  readonly url: string;
  readonly own: boolean;
  close(): Promise<void>;
}

/** The daemon's proxy when a daemon answers and says where it is; else one this run starts and stops. */
async function egressFor(ctx: Context, input: RunHookInput): Promise<Proxy> {
  const { proxyUrl, readEgress } = await import("../../../state/egress.ts");
  const recorded = readEgress(ctx.paths);
  if (recorded) {
    // The daemon opens a listener for this session (the port says whose requests arrive on it) and keeps it
    // while this connection stays open: until the agent has exited.
    const client = daemonClient(ctx.paths.sock);
    const ping = await client.call({ method: "ping", egressFor: input.session }, { timeoutMs: CALL_TIMEOUT_MS });
    if (ping?.egress && ping.pid === recorded.pid) {
      return { url: proxyUrl(ping.egress), own: false, close: async () => client.close() };
    }
    client.close();
  }
  const { startEgressProxy } = await import("../../../daemon/egress/proxy.ts");
  const { runEgressGate } = await import("../../../daemon/egress/gate.ts");
  const gate = createGate({ ...ctx, env: input.env });
  const who = { cwd: ctx.cwd, agent: input.agent, session: input.session };
  const proxy = await startEgressProxy(runEgressGate(gate, who), { port: 0, caller: { session: input.session } });
  return { url: proxyUrl(proxy), own: true, close: () => proxy.close() };
}

export function runHooks(ctx: Context, input: RunHookInput): RunHooks {
  let proxy: Proxy | undefined;
  return {
    async before() {
      const environments = environmentsOf(input.env.MEMNOX_ENV);
      noteSessionStart(ctx.paths, {
        session: input.session,
        agent: input.agent,
        cwd: ctx.cwd,
        startedAt: new Date(ctx.clock.now()).toISOString(),
        scope: input.scope,
        ...(input.role ? { role: input.role } : {}),
        ...(environments.length > 0 ? { environments } : {}),
      });
      if (input.milestone) {
        // Never stops the run: a milestone that cannot be kept is logged to stderr by rewindDeps.
        const kept = await milestoneAtRunStart(rewindDeps(ctx), {
          session: input.session,
          path: input.root,
          agent: input.agent,
        });
        if (kept.status === "taken") {
          ctx.io.err(`memnox: working tree kept as ${kept.milestone.id}; memnox rewind puts it back\n`);
        }
      }
      try {
        proxy = await egressFor(ctx, input);
      } catch (e) {
        // The run still starts: its shell, interceptors and hooks hold; only the network goes unseen, said here.
        ctx.io.err(`memnox: no egress proxy for this run (${(e as Error).message}); its network is not seen\n`);
        return {};
      }
      const whose = proxy.own ? "this run's own egress proxy (no daemon answers)" : "the daemon's egress proxy";
      ctx.io.err(`memnox: network through ${whose} at ${proxy.url}\n`);
      return egressVariables(proxy.url);
    },
    async after() {
      await proxy?.close();
      // The run is over: the paths its agent leased are free for another session's writes at once.
      releaseSession(ctx.paths.leases, input.session);
    },
  };
}
