// Variables set for a command (`NAME=value cmd`, `export`, `env`): those that load code ask whatever they hold;
// those whose value is a command (EDITOR, GIT_SSH_COMMAND) and GIT_CONFIG_* are judged by the value.
import type { Arg, Call } from "../call.ts";
import { injectionVar } from "../env-vars.ts";
import { evaluatedIn, promptCode, seenOf } from "../evaluate.ts";
import { emitSetting } from "./git.ts";
import { commandVarValue, configParameters, isCommandVar } from "./git-settings.ts";

export type Assignment = readonly [name: string, value: Arg];

/** `NAME=value` (or `NAME+=value`) as name and value, or undefined for a word that is not one. */
export function assignmentOf(a: Arg): Assignment | undefined {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(a.text);
  return m?.[1] ? [m[1], { ...a, text: a.text.slice(m[0].length) }] : undefined;
}

function inject(call: Call, name: string): void {
  call.emit({ name: "environment.inject", class: "unknown", targets: [name] });
}

export function assignmentEffects(call: Call, pairs: readonly Assignment[]): void {
  const config = new Map<string, Arg>();
  for (const [name, value] of pairs) {
    const numbered = /^GIT_CONFIG_(KEY|VALUE)_(\d+)$/.exec(name);
    if (numbered) {
      config.set(`${numbered[1]}${numbered[2]}`, value);
      continue;
    }
    if (name === "GIT_CONFIG_COUNT") continue;
    if (/^PS[0-4]$/.test(name)) {
      // A prompt string is expanded each time it is shown (PS4 under `set -x`): its substitutions run then.
      const ev = promptCode(seenOf(value), call.scope);
      if (ev.runs.length > 0 || ev.hidden)
        call.emit({ name: "environment.command", class: "unknown", targets: [name] });
      evaluatedIn(call, ev, `${name}=${value.text}`);
      continue;
    }
    if (name === "GIT_CONFIG_PARAMETERS") {
      if (!value.static) inject(call, name);
      else for (const [key, v] of configParameters(value.text)) emitSetting(call, key, v);
      continue;
    }
    if (isCommandVar(name)) {
      if (!value.static) {
        call.emit({ name: "environment.command", class: "unknown", targets: [name] });
        continue;
      }
      const judged = commandVarValue(name, value.text);
      if (!judged) continue;
      call.emit({ name: "environment.command", class: "unknown", targets: [name] });
      if (judged.runs) call.engine.shell(judged.runs, call);
      continue;
    }
    if (injectionVar(name, value.static ? value.text : undefined)) inject(call, name);
  }
  for (const [slot, key] of config) {
    if (!slot.startsWith("KEY")) continue;
    const value = config.get(`VALUE${slot.slice(3)}`);
    if (!key.static || (value && !value.static)) inject(call, "GIT_CONFIG_COUNT");
    else emitSetting(call, key.text, value?.text ?? "");
  }
}
