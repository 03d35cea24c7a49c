// `memnox setup`: the stable binary first, then what the agents here can reach, one question, and every seam wired.
import { readFileSync } from "node:fs";
import type { Context } from "../../../ports/context.ts";
import { verbTables } from "../../../resolve/index.ts";
import type { VerbTable } from "../../../resolve/types.ts";
import { scanMachine } from "../../../scan/inventory.ts";
import { renderScan } from "../../../scan/render.ts";
import { installApp } from "../../../wire/app.ts";
import { addLoginPath } from "../../../wire/login-path.ts";
import { reachSummary } from "../../../wire/reach.ts";
import { type SetupReport, wireMachine } from "../../../wire/setup.ts";
import { emit, printLines } from "../output.ts";
import { type CommandFactory, command } from "../registry.ts";
import { homeWords, renderReach, renderSetup } from "./_setup-report.ts";
import { recordState } from "./_state-record.ts";
import { enrol } from "./workspace.ts";

export interface Asker {
  /** One yes/no question at the terminal; `initial` is what Enter means. */
  confirm(question: string, initial: boolean): Promise<boolean>;
}

/** consola's prompt, loaded only when somebody is asked. */
export const consolaAsker: Asker = {
  async confirm(question, initial) {
    const { consola } = await import("consola");
    return (await consola.prompt(question, { type: "confirm", initial })) === true;
  },
};

const NOTHING_LEFT = "Nothing left this machine: no account, no key, no network call.";

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

export const setupWith =
  (asker: Asker, tables: () => readonly VerbTable[]): CommandFactory =>
  (ctx) =>
    command({
      meta: { name: "setup", description: "put this machine under memnox, once" },
      args: {
        yes: { type: "boolean", alias: "y", description: "wire without the question" },
        enforce: { type: "boolean", description: "start in enforce rather than observe" },
        probe: { type: "boolean", default: true, description: "start MCP servers to ask what they offer (--no-probe)" },
        url: {
          type: "string",
          description: "also connect this machine to the control plane at this address, as memnox login does",
        },
        open: {
          type: "boolean",
          default: true,
          description: "with --url: open the approval page (--no-open prints it instead)",
        },
        json: { type: "boolean", description: "structured output" },
      },
      async run({ args }) {
        const say = (lines: readonly string[]) =>
          args.json ? undefined : printLines(ctx, lines.map(homeWords(ctx.paths.home)));
        const app = installApp(ctx);
        const reach = await reachSummary(ctx);
        // The scan's own screen: what each agent can reach, the credentials first, the gap last.
        const inv = await scanMachine(ctx, { probe: args.probe !== false });
        say(renderReach(reach, app, ctx.paths.home).slice(0, 2));
        say(renderScan(inv));
        if (!args.yes) {
          const why = !ctx.io.stdinIsTTY
            ? "nothing was wired: there is no terminal to ask, and --yes was not given (memnox setup --yes wires without the question)"
            : (await asker.confirm("Put them under memnox?", true))
              ? undefined
              : "nothing was wired: you said no";
          if (why) {
            emit(ctx, args.json, { wired: false, reason: why, app, reach }, () => [why]);
            return ctx.io.stdinIsTTY ? 0 : 1;
          }
        }
        const report = await wireMachine(ctx, tables(), { enforce: args.enforce === true });
        if (report.mode.changed)
          recordState(ctx, "memnox.config", "mode: -> enforce (memnox setup --enforce)", "config");
        if (report.changed) recordState(ctx, "memnox.setup", summary(report));
        const { wallAtSetup } = await import("./_protect-wall.ts");
        const wall = await wallAtSetup(ctx);
        const path = await loginPath(ctx, report, args.yes === true, asker);
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
            probe: args.probe !== false,
            ...report,
            wall: wall.wiring ?? null,
            path,
            nothingLeft: joined === undefined,
            ...(joined ? { login: joined.json } : {}),
          },
          () =>
            [
              ...renderSetup(report, ctx.paths.home),
              ...wall.words,
              ...path.words,
              ...(joined ? ["", ...joined.lines] : []),
              "",
              joined
                ? `This machine is under memnox, and connected to ${args.url}.`
                : `This machine is under memnox. ${NOTHING_LEFT}`,
              "Next: memnox status · memnox doctor --wiring · memnox config set mode enforce · memnox login · memnox uninstall",
            ].map(homeWords(ctx.paths.home)),
        );
        return failed ? 1 : 0;
      },
    });

/** Where ~/.memnox/bin stands on the login PATH, and the line that puts it first, written only after a yes. */
async function loginPath(ctx: Context, r: SetupReport, yes: boolean, asker: Asker) {
  const { line, profile, ahead } = r.path;
  const base = { ahead, line, profile };
  if (ahead) return { ...base, added: false, words: ["  PATH          ~/.memnox/bin comes first on this PATH"] };
  if (inProfile(profile, line)) {
    return { ...base, added: false, words: [`  PATH          already in ${profile}; a new login shell picks it up`] };
  }
  const ask =
    !yes && ctx.io.stdinIsTTY && (await asker.confirm(`Add ~/.memnox/bin to your login PATH in ${profile}?`, false));
  if (ask) {
    addLoginPath(ctx);
    return {
      ...base,
      added: true,
      words: [`  PATH          added to ${profile} (backed up; memnox uninstall takes it out)`],
    };
  }
  return {
    ...base,
    added: false,
    words: [
      "  PATH          ~/.memnox/bin is not first on your PATH, so the interceptors meet only what `memnox run --` starts;",
      `                add this line to ${profile}:`,
      `                  ${line}`,
    ],
  };
}

export const setup: CommandFactory = setupWith(consolaAsker, verbTables);
