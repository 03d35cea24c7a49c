// `memnox lock <path> [--for 30m]`, `--list`, `--release <path>`, `--forget`: path leases. An agent's first write to a
// file takes one for its session on its own; a person takes one here, so a second agent waits rather than writing
// over the work. Leases are local to this machine, and say so: across machines is a workspace's job.
import { resolve } from "node:path";
import { formatDuration, parseDuration } from "../../../core/duration.ts";
import { MemnoxError } from "../../../core/errors.ts";
import { realOr } from "../../../io/real.ts";
import { personName } from "../../../state/identity.ts";
import { forgetLeases, type Lease, listLeases, releaseLease, takeLease } from "../../../state/leases.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { recordState } from "./_state-record.ts";

const LOCAL = "leases are local to this machine: an agent on another machine does not see them";

function leaseLine(l: Lease, now: number): string {
  return `${l.path}  held by ${l.holder} (${l.session}) since ${l.since}, ${formatDuration(Date.parse(l.until) - now)} left`;
}

export const lock: CommandFactory = (ctx) =>
  command({
    meta: { name: "lock", description: "hold a path while you work on it, so a second agent waits" },
    args: {
      path: { type: "positional", required: false, description: "the file or directory to hold" },
      for: { type: "string", description: "how long: 30m (default), 2h" },
      list: { type: "boolean", description: "every lease in force on this machine" },
      release: { type: "string", description: "let go of the lease on this path" },
      forget: { type: "boolean", description: "drop every lease on this machine (after a crash left some)" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const now = ctx.clock.now();
      const dir = ctx.paths.leases;
      const at = (p: string) => realOr(resolve(ctx.cwd, p));
      const by = personName(ctx.env);
      if (args.forget) {
        const n = forgetLeases(dir);
        if (n) recordState(ctx, "memnox.lock-forget", `${by} dropped every lease (${n})`);
        emit(ctx, args.json, { forgotten: n }, () => [`dropped ${n} lease(s)`]);
        return 0;
      }
      if (args.release !== undefined) {
        const path = at(args.release);
        const gone = releaseLease(dir, path);
        if (gone) recordState(ctx, "memnox.lock-release", `${by} released ${path} (held by ${gone.holder})`);
        emit(ctx, args.json, { released: gone ?? null }, () =>
          gone ? [`released ${path} (it was held by ${gone.holder})`] : [`nothing holds ${path}`],
        );
        return gone ? 0 : 1;
      }
      if (args.list || !args.path) {
        const live = listLeases(dir).filter((l) => Date.parse(l.until) > now);
        emit(ctx, args.json, { leases: live, local: true }, () => [
          ...(live.length === 0 ? ["no path is leased"] : live.map((l) => leaseLine(l, now))),
          LOCAL,
        ]);
        return 0;
      }
      const path = at(args.path);
      const session = `person:${by}`;
      const forMs = parseDuration(args.for ?? "30m");
      const other = takeLease(dir, { path, session, holder: by, forMs, always: true }, now);
      if (other)
        throw new MemnoxError(
          "conflict",
          `${path} is already held by ${other.holder} (${other.session}) since ${other.since}`,
          `it is free at ${other.until}; "memnox lock --release ${path}" takes it from them`,
        );
      recordState(ctx, "memnox.lock", `${by} holds ${path} for ${formatDuration(forMs)}`);
      const until = new Date(now + forMs).toISOString();
      emit(ctx, args.json, { lease: { path, session, holder: by, until }, local: true }, () => [
        `holding ${path} until ${until}: another agent's write there asks first`,
        LOCAL,
      ]);
      return 0;
    },
  });
