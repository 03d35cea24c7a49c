// `memnox memory ingest-transcript | clear-transcripts | provenance | backlinks`: sessions kept, pages traced back.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { MemnoxError } from "../../../../core/errors.ts";
import { backlinks } from "../../../../memory/pages/backlinks.ts";
import { clearTranscripts, ingestTranscript, listSessions, provenance } from "../../../../memory/pages/transcripts.ts";
import { command } from "../../command.ts";
import { common, flag, type MemoryCli, oneOf, project, projectArgs, run, say, selector, selectorArgs } from "./_cli.ts";

export const ingestCommand = (cli: MemoryCli) =>
  command({
    meta: {
      name: "ingest-transcript",
      description: "store a session's turns (scrubbed) and link them to an episode page",
    },
    args: {
      ...common,
      ...projectArgs,
      "session-id": { type: "string", description: "the session's id", required: true },
      "turns-file": {
        type: "string",
        description: "JSONL: an optional header line, then one turn per line (`-` for stdin)",
        required: true,
      },
      harness: { type: "string", description: "the agent that produced it" },
      scope: { type: "string", description: "the episode's scope: global (default) or project" },
      overwrite: { type: "boolean", description: "replace a session already ingested (refused without it)" },
    },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const file = String(args["turns-file"]);
        let jsonl: string;
        if (file === "-") jsonl = await cli.ctx.io.readAll();
        else {
          try {
            jsonl = readFileSync(resolve(cli.ctx.cwd, file), "utf8");
          } catch {
            throw new MemnoxError("not_found", `cannot read \`${file}\``);
          }
        }
        const scope = oneOf(args, "scope", ["global", "project"] as const) ?? "global";
        const harness = flag(args, "harness");
        const r = ingestTranscript(store, {
          sessionId: String(args["session-id"]),
          jsonl,
          source: file,
          scope,
          ...(scope === "project" ? { project: await project(cli, args) } : {}),
          ...(harness ? { harness } : {}),
          overwrite: args.overwrite === true,
        });
        say(cli, args, r, () => [`${r.turn_count} turns stored; episode ${r.episode_node}`, `  ${r.transcript_file}`]);
        return 0;
      }),
  });

export const clearCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "clear-transcripts", description: "delete every raw transcript; episodes stay with retired links" },
    args: { ...common, confirm: { type: "boolean", description: "yes, delete them permanently" } },
    run: ({ args }) =>
      run(cli, args, (store) => {
        const r = clearTranscripts(store, args.confirm === true);
        say(cli, args, r, () => [`removed ${r.removed_files} files; retired ${r.retired_links} episode links`]);
        return 0;
      }),
  });

export const provenanceCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "provenance", description: "how a page traces back to a session" },
    args: { ...common, ...selectorArgs, slug: { type: "positional", description: "the page", required: true } },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const r = provenance(store, String(args.slug), await selector(cli, args));
        say(cli, args, r, () => [`${r.slug}: ${r.confidence}`, ...r.transcript_files.map((f) => `  ${f}`)]);
        return 0;
      }),
  });

export const backlinksCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "backlinks", description: "the pages that mention or link to a page, with the relation" },
    args: { ...common, ...selectorArgs, slug: { type: "positional", description: "the page", required: true } },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const r = backlinks(store, String(args.slug), await selector(cli, args));
        say(cli, args, r, () =>
          r.backlinks.length === 0
            ? [`nothing links to ${r.slug}`]
            : r.backlinks.map((b) => `${b.slug} -${b.rel}-> ${r.slug}  (${b.file_path})`),
        );
        return 0;
      }),
  });

export const sessionsCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "sessions", description: "captured sessions, newest first, with harness and token use" },
    args: { ...common },
    run: ({ args }) =>
      run(cli, args, (store) => {
        const sessions = listSessions(store);
        say(cli, args, sessions, () =>
          sessions.length === 0
            ? ["no sessions captured yet"]
            : sessions.map(
                (s) =>
                  `${s.started_at ?? s.date}  ${s.session_id}  ${s.harness ?? "manual"}  ${s.turn_count} turns${s.project_label ? `  ${s.project_label}` : ""}`,
              ),
        );
        return 0;
      }),
  });
