// Everything a face needs from the outside world, built once in bin/memnox.ts and handed down.
import type { Clock, Env, Git, Notify, Proc, Processes, Stdio } from "./index.ts";
import type { Paths } from "./paths.ts";

export interface Context {
  /** The name the binary was invoked by. */
  readonly argv0: string;
  /** For a PATH interceptor: the command it stands in for (`git`, `gh`...). */
  readonly invokedName?: string;
  /** Arguments after the face was chosen. */
  readonly args: readonly string[];
  readonly env: Env;
  readonly cwd: string;
  /** The clock read once at start; long-running faces use `clock`. */
  readonly startedAt: number;
  readonly clock: Clock;
  readonly paths: Paths;
  readonly io: Stdio;
  readonly proc: Proc;
  readonly git: Git;
  readonly notify: Notify;
  /** The process ancestry, for telling a person's terminal from an agent's seat; absent in tests that fake it. */
  readonly processes?: Processes;
  readonly version: string;
  /** Absolute path of this executable (the compiled binary, or bun running bin/memnox.ts). */
  readonly execPath: string;
  /** argv prefix that re-invokes this same program: [binary] compiled, [bun, script] from source. */
  readonly selfArgv: readonly string[];
}
