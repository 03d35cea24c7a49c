// `memnox mcp session on|off` (the session tools in every installed agent, or in none) and `memnox mcp trust <server>`.
import { MemnoxError } from "../../../../core/errors.ts";
import type { Context } from "../../../../ports/context.ts";
import { personName } from "../../../../state/identity.ts";
import { readProbation, trust } from "../../../../state/probation.ts";
import { type ClientId, clientDef, isClientId } from "../../../../wire/clients.ts";
import {
  SESSION_CLIENTS,
  type SessionFileStatus,
  type SessionServerReport,
  sessionServerOff,
  sessionServerOn,
} from "../../../../wire/session-server.ts";
import { command } from "../../command.ts";
import { emit, pad } from "../../output.ts";
import { recordState } from "../_state-record.ts";

const STATUS_WORDS: Readonly<Record<SessionFileStatus, string>> = {
  added: "added",
  updated: "repointed",
  present: "already there",
  "would-add": "would add",
  restored: "restored byte for byte",
  removed: "taken out",
  absent: "not there",
  unparsable: "does not parse",
  refused: "left alone",
};

function sessionClients(value: string | undefined): readonly ClientId[] | undefined {
  if (!value) return undefined;
  const ids = value.split(",").map((s) => s.trim());
  const bad = ids.find((id) => !isClientId(id) || !SESSION_CLIENTS.includes(id));
  if (bad !== undefined) {
    const known = isClientId(bad)
      ? `${clientDef(bad).label} does not get the session tools`
      : `unknown client \`${bad}\``;
    throw new MemnoxError("usage", known, `one of ${SESSION_CLIENTS.join(", ")}`);
  }
  return ids as ClientId[];
}

function render(r: SessionServerReport, home: string): string[] {
  const short = (p: string) => (p.startsWith(`${home}/`) ? `~${p.slice(home.length)}` : p);
  const lines = [`memnox-session: ${[r.entry.command, ...r.entry.args].join(" ")}`];
  for (const f of r.files) {
    const why = f.problem ? ` (${f.problem})` : "";
    lines.push(`  ${pad(STATUS_WORDS[f.status], 24)}${pad(clientDef(f.client).label, 14)}${short(f.file)}${why}`);
  }
  if (r.files.length === 0) lines.push(r.action === "on" ? "  no installed agent found" : "  no agent has it");
  if (r.notInstalled.length > 0) {
    lines.push(`  not installed here: ${r.notInstalled.map((c) => clientDef(c).label).join(", ")}`);
  }
  const added = r.files.some((f) => f.status === "added" || f.status === "updated");
  if (r.action === "on" && added) lines.push("restart each agent so it starts the server");
  if (r.action === "off") lines.push("kept out: nothing puts it back until memnox mcp session on");
  return lines;
}

const failedAny = (r: SessionServerReport) => r.files.some((f) => f.status === "unparsable" || f.status === "refused");
const CHANGED = new Set<SessionFileStatus>(["added", "updated", "restored", "removed"]);

function sessionSwitch(ctx: Context, on: boolean) {
  return command({
    meta: {
      name: on ? "on" : "off",
      description: on
        ? "put memnox-session into every installed agent (Claude Code, Codex, Cursor, Gemini CLI, Windsurf)"
        : "take memnox-session out of every agent, and keep it out",
    },
    args: {
      client: { type: "string", valueHint: "client,…", description: `only these (${SESSION_CLIENTS.join(", ")})` },
      json: { type: "boolean", description: "structured output" },
      ...(on ? { "dry-run": { type: "boolean", description: "say what would change and write nothing" } } : {}),
    },
    async run({ args }) {
      const clients = sessionClients(args.client);
      const opts = { ...(clients ? { clients } : {}), dryRun: args["dry-run"] === true };
      const r = on ? await sessionServerOn(ctx, opts) : await sessionServerOff(ctx, opts);
      const changed = r.files.filter((f) => CHANGED.has(f.status)).map((f) => clientDef(f.client).label);
      if (!opts.dryRun) {
        const by = personName(ctx.env);
        const where = changed.length > 0 ? ` (${changed.join(", ")})` : "";
        recordState(
          ctx,
          on ? "memnox.session-on" : "memnox.session-off",
          `${by} turned memnox-session ${on ? "on" : "off"}${where}`,
          "config",
        );
      }
      emit(ctx, args.json, r, () => render(r, ctx.paths.home));
      return failedAny(r) ? 1 : 0;
    },
  });
}

export function sessionCommand(ctx: Context) {
  return command({
    meta: { name: "session", description: "put the memnox-session server into every agent (on) or take it out (off)" },
    subCommands: { on: sessionSwitch(ctx, true), off: sessionSwitch(ctx, false) },
    run() {
      ctx.io.out("memnox mcp session on|off\n");
      return 0;
    },
  });
}

export function trustCommand(ctx: Context) {
  return command({
    meta: { name: "trust", description: "end a newly wrapped server's seven days of probation, on the record" },
    args: {
      server: { type: "positional", description: "the server's name, as rules name it (mcp.<server>.<tool>)" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const name = args.server ?? "";
      const now = ctx.clock.now();
      const by = personName(ctx.env);
      const ended = trust(ctx.paths.probation, "server", name, by, now);
      if (ended) {
        recordState(ctx, "memnox.trust", `${by} ended the probation of MCP server ${name}`);
        emit(ctx, args.json, { trusted: ended }, () => [
          `${name} is off probation: only your rules decide what its tools do now`,
        ]);
        return 0;
      }
      const past = readProbation(ctx.paths.probation).find((e) => e.kind === "server" && e.name === name);
      if (!past) {
        throw new MemnoxError(
          "not_found",
          `MCP server \`${name}\` is not on probation`,
          "a server is on probation only when the daemon adopted it after setup",
        );
      }
      emit(ctx, args.json, { trusted: null, probation: past }, () => [
        past.trustedAt
          ? `${name} was already trusted on ${past.trustedAt} by ${past.trustedBy ?? "somebody"}`
          : `${name} served its probation, which ended ${past.until}`,
      ]);
      return 0;
    },
  });
}
