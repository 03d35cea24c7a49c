// `memnox setup`: what the agents here can reach, one question, and every seam wired. Nothing is written before
// the answer: Ctrl-C (exit 130) and end of input (exit 1) leave the machine exactly as it was.
import { readFileSync } from "node:fs";
import { repoRoot } from "../../../io/repo.ts";
import type { Context } from "../../../ports/context.ts";
import { verbTables } from "../../../resolve/index.ts";
import type { VerbTable } from "../../../resolve/types.ts";
import { scanHeld } from "../../../scan/inventory.ts";
import type { ProbeProgress } from "../../../scan/probe.ts";
import { renderScan } from "../../../scan/render.ts";
import { installApp } from "../../../wire/app.ts";
import { pathPosition } from "../../../wire/interceptors.ts";
import { addLoginPath, pathLine, profileFile } from "../../../wire/login-path.ts";
import { reachSummary } from "../../../wire/reach.ts";
import { type SetupReport, wireMachine } from "../../../wire/setup.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit, printLines } from "../output.ts";
import { type Asker, CANCEL_EXIT, NO_ANSWER_EXIT, terminalAsker } from "../prompt.ts";
import { spinner } from "../spinner.ts";
import { homeWords, renderSetup, setupStanding, tilde } from "./_setup-report.ts";
import { recordState } from "./_state-record.ts";
import { enrol } from "./workspace.ts";

const NOTHING_LEFT = "Nothing left this machine: no account, no key, no network call.";

/** Each MCP server a setup starts gets this long to list its tools; they are asked all at once. */
const SETUP_PROBE_MS = 5_000;

/** What an interceptor costs a person's own command once it is on their login PATH (bench/startup.bench.ts). */
const PERSON_CALL_MS = 60;

type Answer = "yes" | "path" | "no";

function inProfile(profile: string, line: string): boolean {
  try {
    return readFileSync(profile, "utf8").split("\n").includes(line);
  } catch {
    return false;
  }
}

function summary(r: SetupReport): string {
  const hooked = r.hooks.filter((h) => h.status !== "refused" && h.status !== "unparsable").map((h) => h.agent);
  return `interceptors ${r.interceptors.installed.length}; hooks ${hooked.join(", ") || "none"}; mode ${r.mode.mode}`;
}

function probeWords(p: ProbeProgress): string {
  const waiting = p.waiting.slice(0, 3).join(", ") + (p.waiting.length > 3 ? ` and ${p.waiting.length - 3} more` : "");
  return `asking ${p.total} MCP server(s) what they offer: ${p.done} answered${waiting ? `, waiting on ${waiting}` : ""} (each gets ${p.timeoutMs / 1000} s; --no-probe starts none)`;
}

/** The question, and what each answer does; the PATH choice only where it would change something. */
function question(ctx: Context, offerPath: boolean): string {
  const t = tilde(ctx.paths.home);
  const lines = [
    "",
    "Put them under memnox?",
    "  y  yes: the hooks, the MCP proxy, the interceptors for what agents start, the machine's baseline rules,",
    `     ${repoRoot(ctx.cwd, ctx.env) ? "this repository's own five rules in memnox.policies.toml (to review and commit), " : ""}and the daemon; memnox uninstall takes it all back out`,
  ];
  if (offerPath) {
    lines.push(
      `  p  yes, and put ~/.memnox/bin first on your login PATH (${t(profileFile(ctx))}), so programs an editor`,
      "     or the dock starts meet the interceptors too. Your own git, rm, ssh… then pass through memnox as well:",
      `     recorded as yours and held only by rules you write for yourself (agents = ["person"]), about ${PERSON_CALL_MS} ms a call`,
    );
  }
  lines.push("  n  no: nothing on this machine is changed", "");
  return `${lines.join("\n")}\n${offerPath ? "[Y/p/n]" : "[Y/n]"} `;
}

async function ask(asker: Asker, text: string, offerPath: boolean): Promise<Answer | "cancel" | "eof"> {
  for (let tries = 0; tries < 3; tries++) {
    const reply = await asker.ask(tries === 0 ? text : `${offerPath ? "y, p or n" : "y or n"}? `);
    if (reply.kind !== "line") return reply.kind;
    const a = reply.text.trim().toLowerCase();
    if (a === "" || a === "y" || a === "yes") return "yes";
    if (offerPath && (a === "p" || a === "path")) return "path";
    if (a === "n" || a === "no") return "no";
  }
  return "no";
}

export const setupWith =
  (askerFor: (ctx: Context) => Asker, tables: () => readonly VerbTable[]): CommandFactory =>
  (ctx) =>
    command({
      meta: { name: "setup", description: "put this machine under memnox, once" },
      args: {
        yes: { type: "boolean", alias: "y", description: "wire without the question" },
        enforce: { type: "boolean", description: "start in enforce rather than observe" },
        probe: {
          type: "boolean",
          default: true,
          description: "start each MCP server configured here to ask what it offers (runs their code)",
          negativeDescription: "start no MCP server: their tools come from the cache",
        },
        url: {
          type: "string",
          description: "also connect this machine to the control plane at this address, as memnox login does",
        },
        open: {
          type: "boolean",
          default: true,
          description: "with --url: open the approval page in a browser",
          negativeDescription: "with --url: print the approval page's address instead of opening it",
        },
        json: { type: "boolean", description: "structured output" },
      },
      async run({ args }) {
        const say = (lines: readonly string[]) =>
          args.json ? undefined : printLines(ctx, lines.map(homeWords(ctx.paths.home)));
        const probe = args.probe !== false;
        const reach = await reachSummary(ctx);
        say(["memnox setup", ...reach.lines.slice(0, 1), ""]);
        const spin = spinner(args.json ? { err: () => undefined, stderrIsTTY: false } : ctx.io, width(ctx));
        const held = await scanHeld(ctx, {
          probe,
          probeTimeoutMs: SETUP_PROBE_MS,
          onProbe: (p) => spin.say(probeWords(p)),
        }).finally(() => spin.stop());
        say(renderScan(held.inventory));
        const path = pathStanding(ctx);
        let answer: Answer = "yes";
        if (!args.yes) {
          if (!ctx.io.stdinIsTTY) {
            const why =
              "nothing was wired: there is no terminal to ask, and --yes was not given (memnox setup --yes wires without the question)";
            emit(ctx, args.json, { wired: false, reason: why, reach }, () => [why]);
            return 1;
          }
          const got = await ask(askerFor(ctx), question(ctx, path.offer), path.offer);
          if (got === "cancel" || got === "eof" || got === "no") {
            const why =
              got === "cancel"
                ? "cancelled: nothing on this machine was changed"
                : got === "eof"
                  ? "no answer (end of input): nothing on this machine was changed"
                  : "nothing was wired: you said no";
            emit(ctx, args.json, { wired: false, reason: why, reach }, () => [why]);
            return got === "cancel" ? CANCEL_EXIT : got === "eof" ? NO_ANSWER_EXIT : 0;
          }
          answer = got;
        }
        const app = installApp(ctx);
        held.keep();
        const report = await wireMachine(ctx, tables(), { enforce: args.enforce === true, team: true });
        if (report.mode.changed)
          recordState(ctx, "memnox.config", "mode: -> enforce (memnox setup --enforce)", "config");
        if (report.changed) recordState(ctx, "memnox.setup", summary(report));
        const { wallAtSetup } = await import("./_protect-wall.ts");
        const wall = await wallAtSetup(ctx);
        const added = answer === "path" ? addLoginPath(ctx) : undefined;
        const standing = setupStanding(report, { ...path, added: added !== undefined });
        const failed = report.hooks.some((h) => h.status === "refused" || h.status === "unparsable");
        // --url: the one step that reaches the network, taken only when it is asked for, after the wiring.
        const joined = args.url
          ? await enrol(ctx, {
              url: args.url,
              enforce: args.enforce === true,
              open: args.open !== false,
              say: (line) => (args.json ? ctx.io.err(`${line}\n`) : ctx.io.out(`${line}\n`)),
            })
          : undefined;
        emit(
          ctx,
          args.json,
          {
            wired: true,
            app,
            reach,
            probe,
            ...report,
            wall: wall.wiring ?? null,
            path: { ...path, added: added !== undefined },
            active: standing.active,
            waiting: standing.waiting,
            nothingLeft: joined === undefined,
            ...(joined ? { login: joined.json } : {}),
          },
          () =>
            [
              `  ${app.words}`,
              "",
              ...renderSetup(report, ctx.paths.home),
              ...wall.words,
              ...standing.lines,
              ...(joined ? ["", ...joined.lines] : []),
              "",
              standing.end,
              joined ? `This machine is under memnox, and connected to ${args.url}.` : NOTHING_LEFT,
              "Next: memnox status · memnox doctor --prove · memnox config set mode enforce · memnox login · memnox uninstall",
            ].map(homeWords(ctx.paths.home)),
        );
        return failed ? 1 : 0;
      },
    });

/** Where ~/.memnox/bin stands on the login PATH, and whether offering to put it first would change anything. */
function pathStanding(ctx: Context) {
  const line = pathLine(ctx);
  const profile = profileFile(ctx);
  const ahead = pathPosition(ctx.env.PATH, ctx.paths.bin, []).onPath;
  const written = inProfile(profile, line);
  return { line, profile, ahead, written, offer: !ahead && !written };
}

function width(ctx: Context): number {
  return ctx.io.columns?.() ?? 80;
}

/** The question goes where a person reads it: stdout, or stderr when stdout is JSON for a script. */
export const setup: CommandFactory = setupWith(
  (ctx) => terminalAsker((t) => (ctx.args.includes("--json") ? ctx.io.err(t) : ctx.io.out(t))),
  verbTables,
);
