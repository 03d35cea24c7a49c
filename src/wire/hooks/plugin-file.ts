// An agent whose hook is a file of memnox's own code (OpenCode's plugin) rather than entries in its settings: written
// whole, backed up like any file memnox touches (a person's own file of that name is left alone), taken out whole.
import { existsSync, rmSync } from "node:fs";
import { HOOK_LINE, PLUGIN_MARK } from "../../../hooks/opencode.ts";
import { MemnoxError } from "../../core/errors.ts";
import { restoreFromBackup, rewriteWithBackup } from "../backup.ts";
import { readConfigFile } from "../files.ts";
import type { HookTarget } from "./targets.ts";

type PluginStatus = "added" | "repointed" | "unchanged";

function ours(text: string): boolean {
  return text.startsWith(PLUGIN_MARK);
}

/** memnox's plugin at `file`, starting `launcher`; a second run changes nothing. */
export function installPlugin(
  target: HookTarget,
  file: string,
  launcher: readonly string[],
  at: { readonly backupDir: string; readonly owner: string; readonly nowMs: number },
): { status: PluginStatus; backup: string | null } {
  const want = target.plugin?.(launcher, file);
  if (want === undefined) throw new Error(`${target.agent} has no plugin file`);
  let status: PluginStatus = "unchanged";
  const r = rewriteWithBackup({
    backupDir: at.backupDir,
    path: file,
    owner: at.owner,
    note: target.agent,
    nowMs: at.nowMs,
    transform: (text) => {
      if (text === undefined) {
        status = "added";
        return want;
      }
      if (!ours(text)) {
        throw new MemnoxError("unsafe_edit", `\`${file}\` is somebody else's plugin, so memnox leaves it alone`);
      }
      if (text === want) return undefined;
      status = "repointed";
      return want;
    },
  });
  return { status, backup: r.backup };
}

/** memnox's plugin out: the file as it was before memnox (none), even after somebody edited memnox's own code. */
export function removePlugin(
  file: string,
  at: { readonly backupDir: string; readonly owner: string },
): { outcome: "restored" | "removed" | "unchanged" | "missing"; backup: string | null } {
  const r = restoreFromBackup({
    backupDir: at.backupDir,
    path: file,
    owners: [at.owner],
    // Nothing in the file is anybody else's: there are no entries to strip out of it.
    strip: () => undefined,
  });
  const text = readConfigFile(file)?.text;
  if (text !== undefined && ours(text)) {
    rmSync(file, { force: true });
    return { outcome: "removed", backup: r.backup };
  }
  return { outcome: r.outcome, backup: r.backup };
}

/** The words memnox's plugin runs (launcher, `hook`, agent), or undefined when the file is not memnox's plugin. */
export function pluginHook(file: string): { words: string[] } | { problem: string } | undefined {
  if (!existsSync(file)) return undefined;
  const text = readConfigFile(file)?.text;
  if (text === undefined || !ours(text)) return undefined;
  const m = HOOK_LINE.exec(text);
  try {
    const words: unknown = m?.[1] ? JSON.parse(m[1]) : undefined;
    if (Array.isArray(words) && words.every((w) => typeof w === "string")) return { words };
  } catch {
    // Falls through to the problem below.
  }
  return { problem: `memnox's plugin \`${file}\` no longer names the program it runs` };
}
