// Environment variables that make a harmless command load or run code from elsewhere.
const INJECTING: Record<string, string> = {
  LD_PRELOAD: "loads a library into every program",
  LD_AUDIT: "loads a library into every program",
  LD_LIBRARY_PATH: "changes which libraries programs load",
  DYLD_INSERT_LIBRARIES: "loads a library into every program",
  DYLD_LIBRARY_PATH: "changes which libraries programs load",
  DYLD_FRAMEWORK_PATH: "changes which frameworks programs load",
  BASH_ENV: "runs a file before every bash script",
  ENV: "runs a file when sh starts",
  PROMPT_COMMAND: "runs a command at every prompt",
  NODE_OPTIONS: "can make node load any file",
  PERL5OPT: "can make perl load any module",
  RUBYOPT: "can make ruby load any file",
  PYTHONSTARTUP: "runs a file when python starts",
  GIT_EXEC_PATH: "changes which programs git runs",
  GIT_TEMPLATE_DIR: "copies hooks into every repository git creates",
  GIT_CONFIG_GLOBAL: "loads git settings, hooks and aliases included, from another file",
  GIT_CONFIG_SYSTEM: "loads git settings, hooks and aliases included, from another file",
  GIT_CONFIG: "loads git settings, hooks and aliases included, from another file",
};

/** Options of a runtime's options variable that load code; any other (`--max-old-space-size=4096`) only tunes it. */
const LOADING_OPTIONS: Readonly<Record<string, RegExp>> = {
  NODE_OPTIONS: /(^|\s)(-[rep]|--(require|import|loader|experimental-loader|env-file|eval|print|inspect))/,
  PERL5OPT: /(^|\s)-[MmI]/,
  RUBYOPT: /(^|\s)-[rI]/,
};

/**
 * Why setting `name` (to `value`, when it is known) can run code, or undefined when it cannot; memnox's own settings
 * count too. A runtime's options variable is judged by its value: only options that load code inject it. Variables
 * whose value is itself a command (EDITOR, GIT_SSH_COMMAND) and GIT_CONFIG_* are judged by their value elsewhere
 * (assignments.ts).
 */
export function injectionVar(name: string, value?: string): string | undefined {
  if (name.startsWith("MEMNOX_")) return "changes how memnox itself decides";
  const loads = LOADING_OPTIONS[name];
  if (loads && value !== undefined && !/[$`]/.test(value) && !loads.test(value)) return undefined;
  return INJECTING[name];
}
