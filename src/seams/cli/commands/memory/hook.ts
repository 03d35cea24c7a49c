// `memnox memory hook session-start | prompt | transcript`: memex's push layer for harnesses without memnox's own
// agent hooks (pi, Copilot, custom): a context block on stdout or nothing, exit 0 either way; a capture per session.
import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { CommandDef } from "citty";
import { claudeSettings, codexHome, PROJECT_FILES } from "../../../../core/agent-paths.ts";
import { MemnoxError } from "../../../../core/errors.ts";
import { MACHINE_IDS, projectFromCwd, sessionQuery } from "../../../../memory/format/project.ts";
import { captureSession } from "../../../../memory/pages/capture.ts";
import { HARNESSES } from "../../../../memory/pages/harness.ts";
import type { Store } from "../../../../memory/pages/store.ts";
import { heldReminders } from "../../../../memory/recall/held.ts";
import {
  buildInjection,
  CONSTITUTION,
  DEFAULT_INJECTION_TOP_K,
  MEMORY_FOOTER,
  MEMORY_HEADER,
} from "../../../../memory/recall/inject.ts";
import { command } from "../../command.ts";
import { common, flag, integer, type MemoryCli, oneOf, run } from "./_cli.ts";

const topK = {
  type: "string",
  description: `at most this many pages (1-100, default ${DEFAULT_INJECTION_TOP_K})`,
} as const;
const maxTokens = { type: "string", description: "token budget for the block (default 4096)" } as const;

function bounded(args: Record<string, unknown>, name: string, max: number): number | undefined {
  const n = integer(args, name);
  if (n !== undefined && (n < 1 || n > max)) throw new MemnoxError("usage", `--${name} must be from 1 to ${max}`);
  return n;
}

/**
 * The block for `query`, printed when it clears the floor (true when it was); a store that cannot answer is
 * silence, never an error.
 */
async function inject(cli: MemoryCli, args: Record<string, unknown>, store: Store, query: string): Promise<boolean> {
  const k = bounded(args, "top-k", 100);
  const budget = bounded(args, "max-tokens", 32768);
  let block = "";
  let report: unknown = { block: "", hits: [], silent: "no-store" };
  try {
    const project = await projectFromCwd(cli.ctx.git, cli.ctx.cwd);
    const r = buildInjection(store, {
      query,
      scope: { kind: "projects+global", projectIds: [project.id, ...MACHINE_IDS] },
      ...(k !== undefined ? { topK: k } : {}),
      ...(budget !== undefined ? { maxTokens: budget } : {}),
    });
    block = r.block;
    report = r;
  } catch {
    // the hook contract: exit 0 and say nothing, whatever the store's state
  }
  if (args.json === true) cli.ctx.io.out(`${JSON.stringify(report, null, 2)}\n`);
  else if (block) cli.ctx.io.out(`${block}\n`);
  return block !== "";
}

/** Raw prompt text, or a hook payload's `prompt` (Claude Code's UserPromptSubmit shape). */
function promptOf(stdin: string): string {
  const raw = stdin.trim();
  if (!raw) return "";
  try {
    const payload = JSON.parse(raw) as unknown;
    if (payload && typeof payload === "object" && typeof (payload as { prompt?: unknown }).prompt === "string")
      return (payload as { prompt: string }).prompt;
  } catch {
    // not JSON: the text is the prompt
  }
  return raw;
}

/**
 * A hook payload's session file: Claude Code's `transcript_path`, or what other harnesses call it. Codex's notify
 * payload (one JSON argument) names only its thread: its rollout is found under $CODEX_HOME/sessions by that id.
 */
function transcriptPathOf(text: string, codexHome?: string): string | undefined {
  let payload: Record<string, unknown> | null;
  try {
    payload = JSON.parse(text.trim()) as Record<string, unknown> | null;
  } catch {
    return undefined;
  }
  for (const key of ["transcript_path", "session_transcript", "rollout_path", "rollout-path"]) {
    const v = payload?.[key];
    if (typeof v === "string" && v) return v;
  }
  const thread = payload?.["thread-id"] ?? payload?.thread_id;
  if (typeof thread !== "string" || !/^[A-Za-z0-9-]{1,128}$/.test(thread) || !codexHome) return undefined;
  const sessions = join(codexHome, "sessions");
  if (!existsSync(sessions)) return undefined;
  const found = [...new Bun.Glob(`**/rollout-*${thread}.jsonl`).scanSync({ cwd: sessions, onlyFiles: true })].sort();
  return found.length > 0 ? join(sessions, found[found.length - 1] ?? "") : undefined;
}

/** Claude Code's hook payload names its transcript under its own folder: how a push hook knows it runs there. */
function fromClaudeCode(payload: string): boolean {
  const path = transcriptPathOf(payload);
  return path !== undefined && /\/\.claude\/projects\//.test(path);
}

/**
 * Whether memnox's own Claude Code hook answers this event for the session's folder: it already says what memory
 * covers (at a session's start and at each prompt), so the push layer stays silent rather than say it twice.
 */
function claudeHookAnswers(cli: MemoryCli, event: string): boolean {
  const env = cli.ctx.env;
  const files = [
    claudeSettings(cli.ctx.paths.home, env),
    join(cli.ctx.cwd, PROJECT_FILES.claudeSettings),
    join(cli.ctx.cwd, PROJECT_FILES.claudeLocalSettings),
  ];
  const ours = new RegExp(`\\bhook claude-code ${event}\\b`);
  return files.some((f) => {
    try {
      return ours.test(readFileSync(f, "utf8"));
    } catch {
      return false;
    }
  });
}

/** The project's own durable pages as a memex block, for a session's start no query matched. */
async function injectHeld(cli: MemoryCli, args: Record<string, unknown>, store: Store): Promise<number> {
  const project = await projectFromCwd(cli.ctx.git, cli.ctx.cwd);
  const k = bounded(args, "top-k", 100) ?? DEFAULT_INJECTION_TOP_K;
  const held = heldReminders({ store, projects: [project.id], limit: k, budgetTokens: 4096 });
  if (held.length === 0) return 0;
  const lines = [...CONSTITUTION.map((l) => `[memex] ${l}`), MEMORY_HEADER, `[Project: ${project.label}]`, "---"];
  held.forEach((h, i) => {
    lines.push(
      `${i + 1}. ${h.title} (${h.type})`,
      `   File: ${h.file_path}`,
      ...(h.text ? [`   ${h.text}`] : []),
      "---",
    );
  });
  lines.push(MEMORY_FOOTER);
  cli.ctx.io.out(`${lines.join("\n")}\n`);
  return 0;
}

const sessionStart = (cli: MemoryCli) =>
  command({
    meta: { name: "session-start", description: "a memory context block for a session's start, or nothing" },
    args: {
      ...common,
      query: { type: "string", description: "what to recall (default: the folder, branch and last commit)" },
      "top-k": topK,
      "max-tokens": maxTokens,
    },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const payload = cli.ctx.io.stdinIsTTY ? "" : await cli.ctx.io.readAll();
        if (fromClaudeCode(payload) && claudeHookAnswers(cli, "SessionStart")) return 0;
        const asked = flag(args, "query");
        const query = asked ?? (await sessionQuery(cli.ctx.git, cli.ctx.cwd).catch(() => ""));
        const said = await inject(cli, args, store, query);
        // Nothing the folder's words matched: the project's own decisions and preferences, as a session opens.
        return said || asked !== undefined || args.json === true ? 0 : injectHeld(cli, args, store);
      }),
  });

const prompt = (cli: MemoryCli) =>
  command({
    meta: { name: "prompt", description: "a memory context block for a prompt (--prompt, or stdin: text or JSON)" },
    args: {
      ...common,
      prompt: { type: "string", description: "the prompt's text (otherwise read from stdin)" },
      "top-k": topK,
      "max-tokens": maxTokens,
    },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const given = flag(args, "prompt");
        const payload = given !== undefined || cli.ctx.io.stdinIsTTY ? "" : await cli.ctx.io.readAll();
        if (fromClaudeCode(payload) && claudeHookAnswers(cli, "UserPromptSubmit")) return 0;
        const text = given ?? promptOf(payload);
        if (!text.trim()) return 0;
        await inject(cli, args, store, text);
        return 0;
      }),
  });

const transcript = (cli: MemoryCli) =>
  command({
    meta: { name: "transcript", description: "capture a harness-native session file as a transcript; idempotent" },
    args: {
      ...common,
      payload: {
        type: "positional",
        required: false,
        description: "a hook payload as one JSON argument (Codex's notify)",
      },
      harness: { type: "string", description: `the session file's harness: ${HARNESSES.join(", ")}`, required: true },
      path: { type: "string", description: "the session file (otherwise transcript_path from stdin JSON)" },
      "session-id": { type: "string", description: "the session's id (default: the file's own, else its name)" },
      overwrite: {
        type: "boolean",
        default: true,
        description: "merge a later capture of the same session (--no-overwrite leaves it alone, exit 0)",
        negativeDescription: "leave a session already captured alone (exit 0)",
      },
      consolidate: {
        type: "boolean",
        description: "distil the fresh episode through the configured model (also MEMEX_AUTO_CONSOLIDATE=1)",
      },
    },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const harness = oneOf(args, "harness", HARNESSES) ?? "custom";
        const codex = codexHome(cli.ctx.paths.home, cli.ctx.env);
        const argument = typeof args.payload === "string" ? transcriptPathOf(args.payload, codex) : undefined;
        const given =
          flag(args, "path") ??
          argument ??
          (cli.ctx.io.stdinIsTTY || typeof args.payload === "string"
            ? undefined
            : transcriptPathOf(await cli.ctx.io.readAll(), codex));
        if (!given) {
          cli.ctx.io.err("memnox: no transcript path given or found on stdin\n");
          return 1;
        }
        const file = resolve(cli.ctx.cwd, given);
        if (!existsSync(file)) {
          cli.ctx.io.err(`memnox: transcript not found: ${file}\n`);
          return 1;
        }
        const about = await projectFromCwd(cli.ctx.git, cli.ctx.cwd).catch(() => undefined);
        const sessionId = flag(args, "session-id");
        const r = captureSession(store, {
          harness,
          text: readFileSync(file, "utf8"),
          fileName: basename(file),
          ...(sessionId ? { sessionId } : {}),
          noOverwrite: args.overwrite === false,
          ...(about ? { about } : {}),
        });
        if (!r.captured) {
          cli.ctx.io.err(
            r.reason === "already-ingested"
              ? `memnox: transcript already ingested: ${r.session_id}\n`
              : `memnox: nothing to capture in ${file}: it holds no turns\n`,
          );
          return 0;
        }
        const out: Record<string, unknown> = {
          session_id: r.report.session_id,
          episode_node: r.report.episode_node,
          turn_count: r.report.turn_count,
          harness: r.harness,
          transcript_file: r.report.transcript_file,
        };
        const env = cli.ctx.env;
        if (
          args.consolidate === true ||
          env.MEMEX_AUTO_CONSOLIDATE === "1" ||
          env.MEMNOX_MEMORY_AUTO_CONSOLIDATE === "1"
        )
          out.consolidation = await consolidateFresh(store, r.report.episode_node);
        cli.ctx.io.out(`${JSON.stringify(out, null, 2)}\n`);
        return 0;
      }),
  });

/** Best effort: a missing model or an unreachable one is reported in the result and never fails the hook. */
async function consolidateFresh(store: Store, episode: string): Promise<Record<string, unknown>> {
  try {
    const { consolidate } = await import("../../../../memory/consolidate.ts");
    const r = await consolidate(store, { mode: "full", maxEpisodes: 1, episodes: [episode] });
    return { llm_calls: r.llm_calls, nodes_created: r.nodes_created.length, episodes_processed: r.episodes_processed };
  } catch (e) {
    return { requested: true, error: e instanceof MemnoxError ? e.message : "consolidation failed" };
  }
}

export const hookCommand = (cli: MemoryCli): CommandDef =>
  command({
    meta: {
      name: "hook",
      description: "the push layer: context injection at session start and prompt, capture at end",
    },
    subCommands: { "session-start": sessionStart(cli), prompt: prompt(cli), transcript: transcript(cli) },
  });
