// ~/.memnox/config.toml: the seven settings, 0600, written once on first run and then only edited one line at a time.

import { lstatSync } from "node:fs";
import { parse as parseToml } from "smol-toml";
import * as v from "valibot";
import { MODES, type Mode } from "../core/effect.ts";
import { MemnoxError } from "../core/errors.ts";
import { readTextIfExists, writeFileAtomic } from "../io/files.ts";
import { tomlLines } from "../io/toml-lines.ts";
import { readSeal, sealPath, stricterMode, writeSeal } from "./seal.ts";

export interface Config {
  readonly mode: Mode;
  readonly retentionDays: number;
  readonly failOpen: boolean;
  readonly telemetry: boolean;
  readonly approvedAgents: readonly string[];
  readonly noticeUnusual: boolean;
  readonly noticeWarmupDays: number;
  /** `mode.<seam>`: a seam's own mode beside the global one (a proxy enforcing while the shell only observes). */
  readonly seamModes: Readonly<Partial<Record<SeamName, Mode>>>;
}

/** The seams that may carry their own mode. */
export const SEAM_NAMES = ["hook", "mcp", "shell", "interceptor", "git", "egress"] as const;
type SeamName = (typeof SEAM_NAMES)[number];

export type SettingName = Exclude<keyof Config, "seamModes">;

export const CONFIG_DEFAULTS: Config = {
  mode: "observe",
  retentionDays: 30,
  failOpen: false,
  telemetry: false,
  approvedAgents: [],
  noticeUnusual: true,
  noticeWarmupDays: 3,
  seamModes: {},
};

/** What each setting means and which values it takes, in the words `config list` and errors use. */
export const SETTINGS: Readonly<Record<SettingName, { readonly about: string; readonly values: string }>> = {
  mode: { about: "whether a verdict bites: off, observe (record only), advise, enforce", values: MODES.join(", ") },
  retentionDays: { about: "days of history kept; memnox purge drops older", values: "a whole number, 1 or more" },
  failOpen: { about: "let a call through when the gate cannot answer", values: "true, false" },
  telemetry: { about: "counts only, never contents", values: "true, false" },
  approvedAgents: {
    about: "agents decided allowed here; empty means nobody has decided",
    values: "agent names separated by commas, or an empty string for none",
  },
  noticeUnusual: { about: "ask about an allowed action this agent never took before", values: "true, false" },
  noticeWarmupDays: {
    about: "days after setup when a first action is only recorded",
    values: "a whole number, 0 or more",
  },
};

export const SETTING_NAMES = Object.keys(CONFIG_DEFAULTS).filter((k) => k !== "seamModes") as SettingName[];

/** `mode.hook` and the like: the key a seam's own mode is kept under (quoted in the file, beside `mode`). */
export function seamOfSetting(name: string): SeamName | undefined {
  const m = /^mode\.([a-z]+)$/.exec(name);
  return m && (SEAM_NAMES as readonly string[]).includes(m[1] ?? "") ? (m[1] as SeamName) : undefined;
}

const seamModeKeys = Object.fromEntries(
  SEAM_NAMES.map((s) => [`mode.${s}`, v.optional(v.picklist(MODES, `must be one of ${MODES.join(", ")}`))]),
);

const bool = v.boolean("must be true or false");
const whole = (min: number) =>
  v.pipe(
    v.number("must be a whole number"),
    v.integer("must be a whole number"),
    v.minValue(min, `must be ${min} or more`),
  );

const ConfigSchema = v.strictObject({
  mode: v.optional(v.picklist(MODES, `must be one of ${MODES.join(", ")}`)),
  retentionDays: v.optional(whole(1)),
  failOpen: v.optional(bool),
  telemetry: v.optional(bool),
  approvedAgents: v.optional(
    v.array(v.pipe(v.string(), v.minLength(1, "has an empty name")), "must be a list of agent names"),
  ),
  noticeUnusual: v.optional(bool),
  noticeWarmupDays: v.optional(whole(0)),
  ...seamModeKeys,
});

export function isSettingName(name: string): name is SettingName {
  return (SETTING_NAMES as string[]).includes(name);
}

/** Parses and validates config text; an error names the file, the line and the valid choices. */
function parseConfig(file: string, text: string): Config {
  let data: unknown;
  try {
    data = parseToml(text);
  } catch (e) {
    const first = (e instanceof Error ? e.message : String(e))
      .split("\n")[0]
      ?.replace(/^Invalid TOML document:\s*/, "");
    const line = typeof e === "object" && e !== null && "line" in e ? `:${String(e.line)}` : "";
    throw new MemnoxError(
      "config_invalid",
      `\`${file}${line}\` is not valid TOML: ${first}`,
      "fix the line, or move the file aside to start from the defaults",
    );
  }
  const res = v.safeParse(ConfigSchema, data, { abortEarly: true });
  if (!res.success) {
    const issue = res.issues[0];
    const key = String(issue.path?.[0]?.key ?? "");
    const line = tomlLines(text)([key]);
    const where = `${file}${line ? `:${line}` : ""}`;
    if (issue.type === "strict_object")
      throw new MemnoxError(
        "config_invalid",
        `\`${where}\`: unknown setting \`${key}\``,
        `the settings are ${SETTING_NAMES.join(", ")}, and mode.<seam> for ${SEAM_NAMES.join(", ")}`,
      );
    const values = isSettingName(key) ? SETTINGS[key].values : seamOfSetting(key) ? MODES.join(", ") : "";
    throw new MemnoxError("config_invalid", `\`${where}\`: \`${key}\` ${issue.message}`, `valid: ${values}`);
  }
  const c = res.output;
  const d = CONFIG_DEFAULTS;
  return {
    mode: c.mode ?? d.mode,
    retentionDays: c.retentionDays ?? d.retentionDays,
    failOpen: c.failOpen ?? d.failOpen,
    telemetry: c.telemetry ?? d.telemetry,
    approvedAgents: c.approvedAgents ?? d.approvedAgents,
    noticeUnusual: c.noticeUnusual ?? d.noticeUnusual,
    noticeWarmupDays: c.noticeWarmupDays ?? d.noticeWarmupDays,
    seamModes: Object.fromEntries(
      SEAM_NAMES.flatMap((seam) => {
        const m = (c as Record<string, unknown>)[`mode.${seam}`];
        return typeof m === "string" ? [[seam, m as Mode]] : [];
      }),
    ),
  };
}

/** How config.toml stands on disk: what the sealed mode is for, and what `doctor` reports. */
type ConfigState =
  | { readonly state: "ok"; readonly text: string }
  | { readonly state: "missing" | "empty" | "symlink" | "not-regular" }
  | { readonly state: "unreadable"; readonly error: string };

function configState(file: string): ConfigState {
  try {
    const st = lstatSync(file);
    if (st.isSymbolicLink()) return { state: "symlink" };
    if (!st.isFile()) return { state: "not-regular" };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { state: "missing" };
    return { state: "unreadable", error: (e as Error).message };
  }
  try {
    const text = readTextIfExists(file);
    if (text === undefined) return { state: "missing" };
    return text.trim() === "" ? { state: "empty" } : { state: "ok", text };
  } catch (e) {
    return { state: "unreadable", error: (e as Error).message };
  }
}

/**
 * The settings in force; nothing is written by reading. Before setup an absent file means the defaults. After setup
 * (a seal exists) a missing, empty, unreadable or symlinked file means the sealed mode, and a file whose mode is
 * looser than the seal is held to the seal: only `memnox config set` loosens it.
 */
export function readConfig(file: string): Config {
  const seal = readSeal(sealPath(file));
  const got = configState(file);
  let text: string | undefined;
  if (got.state === "ok") text = got.text;
  else if (seal) return { ...CONFIG_DEFAULTS, mode: seal.mode, failOpen: seal.failOpen };
  else if (got.state === "symlink") text = readTextIfExists(file);
  else if (got.state === "unreadable" || got.state === "not-regular")
    throw new MemnoxError("io", `could not read \`${file}\`${"error" in got ? `: ${got.error}` : ""}`);
  if (text === undefined || text.trim() === "") return CONFIG_DEFAULTS;
  const config = parsedConfig(file, text);
  if (!seal) return config;
  return { ...config, mode: stricterMode(config.mode, seal.mode), failOpen: config.failOpen && seal.failOpen };
}

/** What is wrong with config.toml after setup, in words, and the mode memnox holds instead; undefined when nothing. */
export function configIntegrity(file: string): { readonly problem: string; readonly holds: Mode } | undefined {
  const seal = readSeal(sealPath(file));
  if (!seal) return undefined;
  const got = configState(file);
  const words: Record<Exclude<ConfigState["state"], "ok">, string> = {
    missing: "is missing",
    empty: "is empty",
    symlink: "is a symbolic link, which memnox does not follow",
    "not-regular": "is not a regular file",
    unreadable: "cannot be read",
  };
  if (got.state !== "ok") return { problem: `${file} ${words[got.state]}`, holds: seal.mode };
  let mode: Mode;
  try {
    mode = parseConfig(file, got.text).mode;
  } catch {
    return undefined;
  }
  if (stricterMode(mode, seal.mode) === mode) return undefined;
  return { problem: `${file} says mode ${mode}, looser than the ${seal.mode} memnox last set`, holds: seal.mode };
}

function parsedConfig(file: string, text: string): Config {
  // A hook reads the file more than once; the same bytes need parsing and checking only once.
  if (last?.file === file && last.text === text) return last.config;
  const config = parseConfig(file, text);
  last = { file, text, config };
  return config;
}

let last: { readonly file: string; readonly text: string; readonly config: Config } | undefined;

function tomlValue(value: Config[SettingName]): string {
  if (Array.isArray(value)) return `[${value.map((x) => JSON.stringify(x)).join(", ")}]`;
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function renderConfig(c: Config): string {
  const lines = [
    "# memnox settings. Change them with `memnox config set <name> <value>`; `memnox config list` explains each.",
    "",
  ];
  for (const k of SETTING_NAMES) lines.push(`# ${SETTINGS[k].about}`, `${k} = ${tomlValue(c[k])}`, "");
  return lines.join("\n");
}

/** Writes the defaults on first run, never over an existing file. */
export function ensureConfig(file: string): { readonly config: Config; readonly created: boolean } {
  const text = readTextIfExists(file);
  if (text !== undefined && text.trim() !== "") return { config: parseConfig(file, text), created: false };
  // Rewritten after setup (it went missing or empty), it says the sealed mode rather than the first-run default.
  const seal = readSeal(sealPath(file));
  const config = seal ? { ...CONFIG_DEFAULTS, mode: seal.mode, failOpen: seal.failOpen } : CONFIG_DEFAULTS;
  writeFileAtomic(file, renderConfig(config), 0o600);
  return { config, created: true };
}

/** Seals the mode in force now, unless a seal is already there: setup, and machines set up before seals existed. */
export function sealCurrentMode(file: string, nowMs: number): void {
  if (readSeal(sealPath(file))) return;
  writeSeal(sealPath(file), readConfig(file), nowMs);
}

/** A value typed at the terminal, checked against the setting; the error lists what it takes. */
export function parseSettingValue(name: string, raw: string): Config[SettingName] {
  if (!isSettingName(name))
    throw new MemnoxError("usage", `unknown setting \`${name}\``, `the settings are ${SETTING_NAMES.join(", ")}`);
  const bad = () =>
    new MemnoxError("usage", `\`${raw}\` is not a value for \`${name}\``, `valid: ${SETTINGS[name].values}`);
  const d = CONFIG_DEFAULTS[name];
  if (typeof d === "boolean") {
    if (raw === "true" || raw === "false") return raw === "true";
    throw bad();
  }
  if (typeof d === "number") {
    const min = name === "noticeWarmupDays" ? 0 : 1;
    if (!/^\d+$/.test(raw) || Number(raw) < min) throw bad();
    return Number(raw);
  }
  if (Array.isArray(d))
    return raw
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  if (!(MODES as readonly string[]).includes(raw)) throw bad();
  return raw as Mode;
}

/** Changes one setting by editing its one line, so comments and the rest of the file survive. */
export function setSetting(
  file: string,
  name: string,
  raw: string,
  nowMs = Date.now(),
): { readonly previous: Config; readonly config: Config } {
  const seam = seamOfSetting(name);
  const value = seam ? seamModeValue(name, raw) : parseSettingValue(name, raw);
  const { config: previous } = ensureConfigText(file);
  const text = readTextIfExists(file) ?? "";
  const key = seam ? JSON.stringify(name) : name;
  const line = value === undefined ? undefined : `${key} = ${tomlValue(value)}`;
  const at = seam ? quotedLine(text, name) : tomlLines(text)([name]);
  const lines = text.split("\n");
  if (at !== undefined) {
    if (line === undefined) lines.splice(at - 1, 1);
    else lines[at - 1] = line;
  } else if (line !== undefined) {
    const firstTable = lines.findIndex((l) => /^\s*\[/.test(l));
    lines.splice(firstTable === -1 ? lines.length : firstTable, 0, line);
  }
  const next = lines.join("\n");
  const config = parseConfig(file, next);
  writeFileAtomic(file, next, 0o600);
  // After setup the seal follows every mode a person sets, so a damaged config.toml later means this one.
  if ((name === "mode" || name === "failOpen") && readSeal(sealPath(file))) writeSeal(sealPath(file), config, nowMs);
  return { previous, config };
}

/** A seam's own mode, or `global` to follow the global mode again (the line goes). */
function seamModeValue(name: string, raw: string): Mode | undefined {
  if (raw === "global") return undefined;
  if ((MODES as readonly string[]).includes(raw)) return raw as Mode;
  throw new MemnoxError("usage", `\`${raw}\` is not a value for \`${name}\``, `valid: ${MODES.join(", ")}, or global`);
}

/** The 1-based line of a quoted top-level key (`"mode.hook" = ...`). */
function quotedLine(text: string, key: string): number | undefined {
  const lines = text.split("\n");
  const firstTable = lines.findIndex((l) => /^\s*\[/.test(l));
  const i = lines.findIndex((l, n) => (firstTable === -1 || n < firstTable) && l.trimStart().startsWith(`"${key}"`));
  return i === -1 ? undefined : i + 1;
}

/** Like ensureConfig, but a file whose values are wrong still lets `set` repair the one it names. */
function ensureConfigText(file: string): { readonly config: Config } {
  try {
    return ensureConfig(file);
  } catch (e) {
    if (e instanceof MemnoxError && e.code === "config_invalid" && !/not valid TOML/.test(e.message))
      return { config: CONFIG_DEFAULTS };
    throw e;
  }
}
