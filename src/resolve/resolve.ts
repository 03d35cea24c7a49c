// The one resolver: a command line, or an interceptor's exact argv, to the actions it performs.

import { maskSecrets } from "../core/secrets.ts";
import { type Arg, lit, type Scope } from "./call.ts";
import { Collector, dedupe } from "./collect.ts";
import type { Script } from "./shell/ast.ts";
import { describeSyntaxError, parseLine } from "./shell/parse.ts";
import { renderArg } from "./shell/render.ts";
import type { Resolution, ResolveContext } from "./types.ts";
import { environmentVars } from "./vars.ts";
import { DEFAULT_MAX_DEPTH, Walker } from "./walk.ts";

function rootScope(ctx: ResolveContext): Scope {
  return {
    cwd: ctx.cwd,
    home: ctx.home,
    started: ctx.project?.repository ?? ctx.cwd,
    depth: 0,
    maxDepth: ctx.maxDepth ?? DEFAULT_MAX_DEPTH,
    functions: new Set(),
    ...(ctx.project ? { project: ctx.project } : {}),
    vars: environmentVars(ctx.env),
    aliases: new Map(),
    links: new Map(),
    attributes: new Map(),
  };
}

/** A shell command line: `shell.execute` on the normalised line first, then every action inside it. */
export function resolveCommand(line: string, ctx: ResolveContext): Resolution {
  const out = new Collector(line, ctx.project, ctx.cwd);
  const walker = new Walker(out);
  let script: Script = [];
  let normalized = line.trim();
  let parseError: string | undefined;
  try {
    const parsed = parseLine(line);
    script = parsed.script;
    normalized = parsed.normalized;
  } catch (e) {
    parseError = describeSyntaxError(e, line) ?? "the line could not be read";
    try {
      const lenient = parseLine(line, true);
      script = lenient.script;
      normalized = lenient.normalized;
    } catch {
      script = [];
    }
  }
  walker.script(script, rootScope(ctx));
  if (parseError !== undefined) {
    out.add({ name: "shell.unknown", class: "unknown", targets: [parseError] });
    out.noteUnknown(`unparsable: ${parseError}`);
  }
  return finish(out, maskSecrets(normalized), line, parseError);
}

/** An interceptor's exact argv (argv[0] the CLI name or a path to it): no shell parsing, the same names. */
export function resolveArgv(argv: readonly string[], ctx: ResolveContext): Resolution {
  const line = argv.map(renderArg).join(" ");
  const out = new Collector(line, ctx.project, ctx.cwd);
  const args: Arg[] = argv.map(lit);
  new Walker(out).argv(args, rootScope(ctx));
  return finish(out, maskSecrets(line), line, undefined);
}

function finish(out: Collector, normalized: string, line: string, parseError: string | undefined): Resolution {
  out.insertShell(0, normalized, line);
  const actions = dedupe(out.actions);
  return {
    actions,
    normalized,
    unknown: out.unknown,
    ...(parseError !== undefined ? { parseError } : {}),
    ...(out.runs.length > 0 ? { runs: out.runs } : {}),
  };
}
