// One tools/call: arguments checked strictly, the tool run, and any failure said as a short, masked tool error.
import * as v from "valibot";
import { describeError, isMemnoxError } from "../../core/errors.ts";
import { refused, type ToolAnswer } from "./answer.ts";
import { decisions } from "./decisions.ts";
import type { SessionDeps } from "./deps.ts";
import { replay, status, why } from "./records.ts";
import { rewindFromSession } from "./rewind.ts";
import { isToolName } from "./tools.ts";

const Text = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(4096));
const SCHEMAS = {
  why: v.strictObject({ event: v.optional(Text) }),
  status: v.strictObject({}),
  replay: v.strictObject({ session: v.optional(Text) }),
  decisions: v.strictObject({ action: v.optional(Text), path: v.optional(Text), command: v.optional(Text) }),
  rewind: v.strictObject({ to: v.optional(Text), session: v.optional(Text) }),
} as const;

class BadArguments extends Error {}

function parse<T extends v.GenericSchema>(schema: T, args: unknown): v.InferOutput<T> {
  const r = v.safeParse(schema, args ?? {});
  if (r.success) return r.output;
  const issue = r.issues[0];
  const field = issue?.path?.map((p) => String(p.key)).join(".") || "arguments";
  throw new BadArguments(`${field}: ${issue?.message ?? "invalid"}`);
}

export async function callTool(deps: SessionDeps, name: string, args: unknown): Promise<ToolAnswer> {
  try {
    if (!isToolName(name)) return refused([`memnox-session has no tool \`${name}\``]);
    switch (name) {
      case "why":
        return why(deps, parse(SCHEMAS.why, args));
      case "status":
        parse(SCHEMAS.status, args);
        return status(deps);
      case "replay":
        return await replay(deps, parse(SCHEMAS.replay, args));
      case "decisions":
        return await decisions(deps, parse(SCHEMAS.decisions, args));
      case "rewind":
        return await rewindFromSession(deps, parse(SCHEMAS.rewind, args));
    }
  } catch (e) {
    if (e instanceof BadArguments) return refused([`bad arguments for ${name}: ${e.message}`]);
    if (isMemnoxError(e)) return refused([describeError(e)]);
    deps.ctx.io.err(`memnox-session: ${name} failed: ${describeError(e)}\n`);
    return refused([`${name} failed inside memnox; the server's stderr has the detail`]);
  }
}
