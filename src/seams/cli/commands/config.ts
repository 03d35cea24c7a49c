// `memnox config list|get|set`: the seven settings in ~/.memnox/config.toml, validated, one line changed at a time.
import { existsSync } from "node:fs";
import { MemnoxError } from "../../../core/errors.ts";
import type { Context } from "../../../ports/context.ts";
import {
  CONFIG_DEFAULTS,
  type Config,
  isSettingName,
  readConfig,
  SEAM_NAMES,
  SETTING_NAMES,
  SETTINGS,
  type SettingName,
  seamOfSetting,
  setSetting,
} from "../../../state/config.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit, pad } from "../output.ts";
import { recordState } from "./_state-record.ts";

const show = (value: Config[SettingName] | undefined) =>
  value === undefined ? "(global)" : Array.isArray(value) ? value.join(",") || "(none)" : String(value);

/** A setting, or `mode.<seam>`: one seam's own mode. */
type Named = SettingName | `mode.${(typeof SEAM_NAMES)[number]}`;

function settingName(name: string | undefined): Named {
  if (name && (isSettingName(name) || seamOfSetting(name))) return name as Named;
  throw new MemnoxError(
    "usage",
    name ? `unknown setting \`${name}\`` : "which setting?",
    `the settings are ${SETTING_NAMES.join(", ")}, and mode.<seam> for ${SEAM_NAMES.join(", ")}`,
  );
}

/** A setting's value; a seam's own mode is undefined while it follows the global one. */
function settingValue(c: Config, name: Named): Config[SettingName] | undefined {
  const seam = seamOfSetting(name);
  return seam ? c.seamModes[seam] : c[name as SettingName];
}

const list = (ctx: Context) =>
  command({
    meta: { name: "list", description: "every setting, its value and what it means" },
    args: { json: { type: "boolean", description: "structured output" } },
    run({ args }) {
      const file = ctx.paths.config;
      const config = readConfig(file);
      const settings = SETTING_NAMES.map((name) => ({
        name,
        value: config[name],
        default: CONFIG_DEFAULTS[name],
        isDefault: JSON.stringify(config[name]) === JSON.stringify(CONFIG_DEFAULTS[name]),
        about: SETTINGS[name].about,
        values: SETTINGS[name].values,
      }));
      const seams = Object.entries(config.seamModes).map(([seam, mode]) => ({ seam, mode }));
      emit(ctx, args.json, { file, exists: existsSync(file), settings, seamModes: config.seamModes }, () => [
        ...settings.map(
          (s) => `${pad(s.name, 18)}${pad(show(s.value), 10)}${s.isDefault ? "" : "(changed) "}${s.about}`,
        ),
        ...seams.map((s) => `${pad(`mode.${s.seam}`, 18)}${pad(s.mode, 10)}the ${s.seam} seam's own mode`),
        existsSync(file) ? `(${file})` : `(defaults: ${file} is written on first run)`,
      ]);
      return 0;
    },
  });

const get = (ctx: Context) =>
  command({
    meta: { name: "get", description: "one setting's value" },
    args: {
      name: { type: "positional", required: false, description: SETTING_NAMES.join(" | ") },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const name = settingName(args.name);
      const value = settingValue(readConfig(ctx.paths.config), name);
      emit(ctx, args.json, { name, value: value ?? null }, () => [show(value)]);
      return 0;
    },
  });

const set = (ctx: Context) =>
  command({
    meta: { name: "set", description: "change one setting; the value is checked first" },
    args: {
      name: { type: "positional", required: false, description: SETTING_NAMES.join(" | ") },
      value: { type: "positional", required: false, description: "the new value" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const name = settingName(args.name);
      // citty reads `-1` as a flag, so a negative number is taken from the raw words and judged like any value.
      const after = ctx.args[ctx.args.indexOf(name) + 1];
      const value = args.value ?? (after !== undefined && /^-\d/.test(after) ? after : undefined);
      const valid = isSettingName(name) ? SETTINGS[name].values : "off, observe, advise, enforce, or global";
      if (value === undefined)
        throw new MemnoxError("usage", `\`config set ${name}\` needs a value`, `valid: ${valid}`);
      const { previous, config } = setSetting(ctx.paths.config, name, value);
      const from = settingValue(previous, name);
      const to = settingValue(config, name);
      recordState(ctx, "memnox.config", `${name}: ${show(from)} -> ${show(to)}`, "config");
      emit(ctx, args.json, { name, previous: from ?? null, value: to ?? null }, () => [
        `${name}: ${show(from)} -> ${show(to)}`,
        ...(name === "mode" && to === "enforce"
          ? ["verdicts now bite: a deny refuses and an ask waits for a person"]
          : []),
      ]);
      return 0;
    },
  });

export const config: CommandFactory = (ctx) =>
  command({
    meta: { name: "config", description: "the seven settings in ~/.memnox/config.toml" },
    subCommands: { list: list(ctx), get: get(ctx), set: set(ctx) },
    default: "list",
  });
