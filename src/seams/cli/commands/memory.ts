// `memnox memory …`: the team's decisions as Markdown pages with an FTS5 index; each operation loads on demand.
import type { CommandDef } from "citty";
import { type CommandFactory, command } from "../command.ts";
import { common, type MemoryCli } from "./memory/_cli.ts";

export const memory: CommandFactory = (ctx) => {
  const cli: MemoryCli = { ctx, code: 0, ran: false };
  const from = (load: () => Promise<(cli: MemoryCli) => CommandDef>) => (): Promise<CommandDef> =>
    load().then((make) => make(cli));
  return command({
    meta: { name: "memory", description: "what the team decided, as pages agents are reminded of" },
    args: { dir: common.dir, "data-dir": common["data-dir"] },
    setup({ args }) {
      const given = args.dir || args["data-dir"];
      if (typeof given === "string" && given) cli.dir = given;
    },
    subCommands: {
      write: from(() => import("./memory/write.ts").then((m) => m.writeCommand)),
      recall: from(() => import("./memory/recall.ts").then((m) => m.recallCommand)),
      forget: from(() => import("./memory/lifecycle.ts").then((m) => m.forgetCommand)),
      approve: from(() => import("./memory/lifecycle.ts").then((m) => m.approveCommand)),
      merge: from(() => import("./memory/lifecycle.ts").then((m) => m.mergeCommand)),
      remember: from(() => import("./memory/remember.ts").then((m) => m.rememberCommand)),
      types: from(() => import("./memory/types.ts").then((m) => m.typesCommand)),
      status: from(() => import("./memory/maintain.ts").then((m) => m.statusCommand)),
      info: from(() => import("./memory/maintain.ts").then((m) => m.infoCommand)),
      "rebuild-index": from(() => import("./memory/maintain.ts").then((m) => m.rebuildCommand)),
      watch: from(() => import("./memory/maintain.ts").then((m) => m.watchCommand)),
      decay: from(() => import("./memory/maintain.ts").then((m) => m.decayCommand)),
      verify: from(() => import("./memory/maintain.ts").then((m) => m.verifyCommand)),
      "ingest-transcript": from(() => import("./memory/transcripts.ts").then((m) => m.ingestCommand)),
      "clear-transcripts": from(() => import("./memory/transcripts.ts").then((m) => m.clearCommand)),
      sessions: from(() => import("./memory/transcripts.ts").then((m) => m.sessionsCommand)),
      provenance: from(() => import("./memory/transcripts.ts").then((m) => m.provenanceCommand)),
      backlinks: from(() => import("./memory/transcripts.ts").then((m) => m.backlinksCommand)),
      backup: from(() => import("./memory/portability.ts").then((m) => m.backupCommand)),
      restore: from(() => import("./memory/portability.ts").then((m) => m.restoreCommand)),
      export: from(() => import("./memory/portability.ts").then((m) => m.exportCommand)),
      import: from(() => import("./memory/portability.ts").then((m) => m.importCommand)),
      consolidate: from(() => import("./memory/consolidate.ts").then((m) => m.consolidateCommand)),
      "serve-mcp": from(() => import("./memory/mcp.ts").then((m) => m.serveMcpCommand)),
      hook: from(() => import("./memory/hook.ts").then((m) => m.hookCommand)),
      viz: from(() => import("./memory/viz.ts").then((m) => m.vizCommand)),
      install: from(() => import("./memory/install.ts").then((m) => (cli: MemoryCli) => m.installCommand(cli))),
      uninstall: from(() => import("./memory/install.ts").then((m) => (cli: MemoryCli) => m.uninstallCommand(cli))),
      harness: from(() => import("./memory/install.ts").then((m) => m.harnessCommand)),
    },
    run() {
      if (!cli.ran) ctx.io.out("memnox memory <command>: memnox help memory lists them\n");
      return cli.code;
    },
  });
};
