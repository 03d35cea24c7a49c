import { describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import {
  CONFIG_DEFAULTS,
  ensureConfig,
  parseSettingValue,
  readConfig,
  SETTING_NAMES,
  setSetting,
} from "../src/state/config.ts";
import { fakeHome } from "./support/index.ts";

describe("config.toml", () => {
  test("the seven settings and their defaults", () => {
    expect(SETTING_NAMES).toEqual([
      "mode",
      "retentionDays",
      "failOpen",
      "telemetry",
      "approvedAgents",
      "noticeUnusual",
      "noticeWarmupDays",
    ]);
    expect(CONFIG_DEFAULTS).toEqual({
      mode: "observe",
      retentionDays: 30,
      failOpen: false,
      telemetry: false,
      approvedAgents: [],
      noticeUnusual: true,
      noticeWarmupDays: 3,
      seamModes: {},
    });
  });

  test("written on first run with mode 0600, never overwritten after", () => {
    using home = fakeHome();
    const file = `${home.memnoxHome}/config.toml`;
    expect(readConfig(file)).toEqual(CONFIG_DEFAULTS);
    expect(ensureConfig(file).created).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readConfig(file)).toEqual(CONFIG_DEFAULTS);
    writeFileSync(file, '# mine\nmode = "enforce"\n');
    expect(ensureConfig(file)).toEqual({ config: { ...CONFIG_DEFAULTS, mode: "enforce" }, created: false });
    expect(readFileSync(file, "utf8")).toBe('# mine\nmode = "enforce"\n');
  });

  test("a bad value names the file, the line and the valid choices", () => {
    using home = fakeHome({ ".memnox/config.toml": 'retentionDays = 30\nmode = "enforced"\n' });
    const file = `${home.memnoxHome}/config.toml`;
    expect(() => readConfig(file)).toThrow(`\`${file}:2\`: \`mode\` must be one of off, observe, advise, enforce`);
    writeFileSync(file, "colour = 1\n");
    expect(() => readConfig(file)).toThrow(`\`${file}:1\`: unknown setting \`colour\``);
    writeFileSync(file, "mode = \n");
    expect(() => readConfig(file)).toThrow(/:1` is not valid TOML/);
  });

  test("set edits one line, keeps comments, validates, and repairs a bad value", () => {
    using home = fakeHome({ ".memnox/config.toml": '# keep me\nmode = "enforced" # typo\n\nretentionDays = 30\n' });
    const file = `${home.memnoxHome}/config.toml`;
    const r = setSetting(file, "mode", "enforce");
    expect(r.config.mode).toBe("enforce");
    expect(readFileSync(file, "utf8")).toBe('# keep me\nmode = "enforce"\n\nretentionDays = 30\n');
    setSetting(file, "approvedAgents", "claude-code, codex");
    expect(readConfig(file).approvedAgents).toEqual(["claude-code", "codex"]);
    setSetting(file, "approvedAgents", "");
    expect(readConfig(file).approvedAgents).toEqual([]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test("the same bytes read twice are parsed once; a changed file is read afresh", () => {
    using home = fakeHome({ ".memnox/config.toml": 'mode = "observe"\n' });
    const file = `${home.memnoxHome}/config.toml`;
    const first = readConfig(file);
    expect(readConfig(file)).toBe(first);
    writeFileSync(file, 'mode = "enforce"\n');
    expect(readConfig(file).mode).toBe("enforce");
    writeFileSync(file, 'mode = "loud"\n');
    expect(() => readConfig(file)).toThrow(/`mode` must be one of/);
  });

  test("set on a machine with no config writes the defaults first", () => {
    using home = fakeHome();
    const file = `${home.memnoxHome}/config.toml`;
    expect(setSetting(file, "noticeWarmupDays", "0").config).toEqual({ ...CONFIG_DEFAULTS, noticeWarmupDays: 0 });
    expect(readFileSync(file, "utf8")).toContain("# whether a verdict bites");
  });

  test.each([
    ["mode", "loud", "valid: off, observe, advise, enforce"],
    ["failOpen", "yes", "valid: true, false"],
    ["retentionDays", "0", "valid: a whole number, 1 or more"],
    ["noticeWarmupDays", "-1", "valid: a whole number, 0 or more"],
    ["colour", "red", "the settings are mode, retentionDays"],
  ])("set %s %s is refused with the choices", (name, value, hint) => {
    try {
      parseSettingValue(name, value);
      throw new Error("accepted");
    } catch (e) {
      expect((e as { hint?: string }).hint ?? "").toContain(hint);
    }
  });
});
