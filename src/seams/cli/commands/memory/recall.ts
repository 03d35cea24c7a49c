// `memnox memory recall`: ranked pages for a query, or task mode with up to three questions.
import { opt } from "../../../../memory/format/opt.ts";
import { recallOp } from "../../../../memory/ops.ts";
import type { Hit } from "../../../../memory/recall/recall.ts";
import { command } from "../../command.ts";
import { common, flag, integer, list, type MemoryCli, many, oneOf, opsDeps, projectArgs, run, say } from "./_cli.ts";

function human(hits: readonly Hit[]): string[] {
  if (hits.length === 0) return ["no memory matched"];
  return hits.flatMap((h) => [
    `${h.rank}. ${h.title} (${h.node_type}, ${h.scope}) ${h.slug}`,
    ...(h.description ? [`   ${h.description}`] : []),
    `   ${h.snippet.replace(/<\/?mark>/g, "")}`,
    `   ${h.file_path}`,
  ]);
}

export const recallCommand = (cli: MemoryCli) =>
  command({
    meta: {
      name: "recall",
      description: "search memory: strict AND, OR when nothing matches; --question for task mode",
    },
    args: {
      ...common,
      ...projectArgs,
      query: { type: "positional", description: "what to look for (the task goal in task mode)", required: true },
      "top-k": { type: "string", description: "at most this many pages (1-100; 36 in task mode)" },
      type: { type: "string", description: "only this type" },
      tag: { type: "string", description: "only pages with every tag given (repeatable)" },
      scope: { type: "string", description: "project: this project's pages only (global, the default: all memory)" },
      "include-expired": { type: "boolean", description: "also pages outside their validity window" },
      "include-inactive": { type: "boolean", description: "also pending, superseded and archived pages" },
      engine: { type: "string", description: "fts5 (default) or navigation (the index.md rows)" },
      "max-tokens": { type: "string", description: "token budget for the pages returned (default 4096)" },
      question: { type: "string", description: "task mode: a question about the goal (one to three)" },
    },
    run: ({ args, rawArgs }) =>
      run(cli, args, async (store) => {
        const questions = many(rawArgs, "question");
        const type = flag(args, "type");
        const tags = list(rawArgs, "tag");
        const r = await recallOp(opsDeps(cli, store), {
          query: String(args.query),
          include_expired: args["include-expired"] === true,
          include_inactive: args["include-inactive"] === true,
          ...opt("questions", questions.length > 0 ? questions : undefined),
          ...opt("top_k", integer(args, "top-k")),
          ...opt("max_tokens", integer(args, "max-tokens")),
          ...opt("scope", oneOf(args, "scope", ["all", "global", "project"] as const)),
          ...opt("project_id", flag(args, "project-id")),
          ...opt("engine", oneOf(args, "engine", ["fts5", "navigation"] as const)),
          ...opt("type", type),
          ...opt("tags", tags.length > 0 ? tags : undefined),
        });
        if ("context" in r) {
          say(cli, args, r, () => [r.context, ...r.source_pages.map((s) => `  [${s.question + 1}] ${s.slug}`)]);
          return 0;
        }
        say(cli, args, r, () => human(r.hits));
        return 0;
      }),
  });
