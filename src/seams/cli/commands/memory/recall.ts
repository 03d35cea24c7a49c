// `memnox memory recall`: ranked pages for a query, or task mode with up to three questions.
import { MemnoxError } from "../../../../core/errors.ts";
import { omittedMarker } from "../../../../memory/recall/linked.ts";
import { type Hit, recall } from "../../../../memory/recall/recall.ts";
import { taskRecall } from "../../../../memory/recall/task.ts";
import { command } from "../../registry.ts";
import {
  common,
  flag,
  integer,
  list,
  type MemoryCli,
  many,
  oneOf,
  project,
  projectArgs,
  run,
  say,
  scopeFilter,
} from "./_cli.ts";

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
      scope: { type: "string", description: "all (default), global or project" },
      "include-expired": { type: "boolean", description: "also pages outside their validity window" },
      "include-inactive": { type: "boolean", description: "also pending, superseded and archived pages" },
      engine: { type: "string", description: "fts5 (default) or navigation (the index.md rows)" },
      "max-tokens": { type: "string", description: "token budget for the pages returned (default 4096)" },
      question: { type: "string", description: "task mode: a question about the goal (one to three)" },
    },
    run: ({ args, rawArgs }) =>
      run(cli, args, async (store) => {
        const questions = many(rawArgs, "question");
        const topK = integer(args, "top-k");
        const maxTokens = integer(args, "max-tokens");
        if (questions.length > 0) {
          if (flag(args, "scope") === "global" || args["include-expired"] || args["include-inactive"])
            throw new MemnoxError("refused", "task mode searches this project's active pages only");
          const r = taskRecall(store, {
            goal: String(args.query),
            questions,
            projectId: (await project(cli, args)).id,
            ...(topK !== undefined ? { topK } : {}),
            ...(maxTokens !== undefined ? { maxTokens } : {}),
          });
          say(cli, args, r, () => [
            ...r.sources.map((s) => `${s.title} (${s.node_type}) [question ${s.question + 1}]\n   ${s.file_path}`),
            ...r.unanswered.map((q) => `no page answers: ${q}`),
            ...r.omitted.map((o) => `omitted (${o.reason}): ${o.question}`),
            ...r.linked.map(
              (l) =>
                `+ ${l.title} (${l.node_type}) | depth: 1 | via: ${l.via}\n   File: ${l.file_path}${l.description ? `\n   ${l.description}` : ""}`,
            ),
            ...(r.linked_omitted ? [omittedMarker(r.linked_omitted)] : []),
          ]);
          return 0;
        }
        const engine = oneOf(args, "engine", ["fts5", "navigation"] as const);
        const type = flag(args, "type");
        const r = recall(store, {
          query: String(args.query),
          scope: await scopeFilter(cli, args),
          tags: list(rawArgs, "tag").map((t) => t.toLowerCase()),
          includeExpired: args["include-expired"] === true,
          includeInactive: args["include-inactive"] === true,
          ...(topK !== undefined ? { topK } : {}),
          ...(maxTokens !== undefined ? { maxTokens } : {}),
          ...(engine ? { engine } : {}),
          ...(type ? { type } : {}),
        });
        say(cli, args, r, () => human(r.hits));
        return 0;
      }),
  });
