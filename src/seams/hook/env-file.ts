// A hooked session's shell commands meet the PATH interceptors: at its start the hook writes, to the file the agent
// sources before each shell command, ~/.memnox/bin first on PATH and the session and agent the rows join under.
import { appendFileSync } from "node:fs";
import { shellQuote } from "../../core/shell-quote.ts";

interface SessionEnv {
  readonly bin: string;
  readonly session?: string;
  readonly agent: string;
}

/** The `export` lines, so every command of the session (and every child it starts) finds the interceptors first. */
function sessionEnvLines(e: SessionEnv): string {
  return [
    "# memnox: the interceptors first on PATH for every command of this session, and the session its rows join",
    `export PATH=${shellQuote(e.bin)}:"$PATH"`,
    ...(e.session ? [`export MEMNOX_SESSION=${shellQuote(e.session)}`] : []),
    `export MEMNOX_AGENT_NAME=${shellQuote(e.agent)}`,
    "",
  ].join("\n");
}

/** Appends the lines (other hooks may write the same file); a failure only means the interceptors are not first. */
export function writeSessionEnv(file: string, e: SessionEnv): string | undefined {
  try {
    appendFileSync(file, sessionEnvLines(e), { mode: 0o600 });
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
