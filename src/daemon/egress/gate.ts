// How a proxy asks about a host: the daemon through its own core, a `memnox run` through its gate.
import type { Action } from "../../core/action.ts";
import { httpActionName } from "../../core/hosts.ts";
import type { Instant } from "../../gate/deps.ts";
import type { EvaluateRequest } from "../../gate/remote/protocol.ts";
import { sessionStart } from "../../gate/sessions.ts";
import type { GateServices } from "../../gate/types.ts";
import { currentBranch } from "../../io/repo.ts";
import type { Paths } from "../../ports/paths.ts";
import type { DaemonCore } from "../core.ts";
import type { EgressCaller, EgressGate } from "./proxy.ts";

/** What a request through the proxy is: a call to a host, nothing more is known of it. */
export function egressAction(host: string): Action {
  return { name: httpActionName([host]), class: "communication", targets: [host], arguments: {} };
}

/** The facts of a proxied request: the session its address declared, and what `memnox run` noted for it. */
export function egressRequest(
  paths: Paths,
  host: string,
  caller: EgressCaller,
  at: Instant,
  argsDigest: string,
  tz: string | undefined,
  version: string,
): EvaluateRequest {
  const start = caller.session ? sessionStart(paths, caller.session) : undefined;
  const cwd = start?.cwd ?? paths.home;
  const branch = currentBranch(cwd);
  return {
    method: "evaluate",
    version,
    surface: "egress",
    cwd,
    canAsk: false,
    ...(start ? { agent: start.agent } : {}),
    ...(caller.session ? { session: caller.session } : {}),
    caller: {
      ...(start?.environments ? { environments: start.environments } : {}),
      ...(start?.role ? { role: start.role } : {}),
      ...(start?.scope ? { scope: start.scope } : {}),
    },
    ...(branch ? { branch } : {}),
    given: "action",
    actions: [{ name: httpActionName([host]), class: "communication", targets: [host], args: false }],
    normalized: httpActionName([host]),
    unknown: [],
    rawArguments: false,
    argsDigest,
    at: { epochMs: at.epochMs },
    ...(tz ? { tz } : {}),
  };
}

export function daemonEgressGate(
  paths: Paths,
  core: DaemonCore,
  now: () => Instant,
  digest: (raw: string) => string,
  tz: string | undefined,
  version: string,
): EgressGate {
  // The digest of an action that carries no arguments, as decide() takes it in a seam's own process.
  const empty = digest("{}");
  return {
    async decide(host, caller) {
      const reply = await core.evaluate(egressRequest(paths, host, caller, now(), empty, tz, version));
      // The request goes out, or is refused, only after its row is written: no seam waits on this answer's speed.
      core.settle();
      if ("answer" in reply) return reply.answer;
      throw new Error(reply.local);
    },
    awaitHold: async (holdId, signal) => (await core.hold({ method: "hold", holdId }, signal)).outcome,
  };
}

/** A `memnox run` with no daemon: its own gate, in the agent's environment, for the run's session. */
export function runEgressGate(
  gate: GateServices,
  who: { readonly cwd: string; readonly agent: string; readonly session: string },
): EgressGate {
  return {
    decide: (host) =>
      gate.decide({
        surface: "egress",
        action: egressAction(host),
        cwd: who.cwd,
        agent: who.agent,
        session: who.session,
        canAsk: false,
      }),
    awaitHold: (holdId, signal) => gate.awaitHold(holdId, signal),
  };
}
