// The resolver's public surface: every seam and report resolves through these.
export { BUILTIN_ACTIONS } from "./builtins.ts";
export {
  type Effective,
  effectiveGit,
  type GitSettings,
  gitWords,
  isGitCommand,
} from "./commands/git-effective.ts";
export { TOOLCHAIN_OUTWARD } from "./commands/toolchain.ts";
export { resolveArgv, resolveCommand } from "./resolve.ts";
export { verbTable, verbTables } from "./tables/index.ts";
export { actionPattern } from "./tables/match.ts";
export type { Resolution, VerbEntry, VerbTable } from "./types.ts";
