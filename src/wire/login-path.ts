// The one line that puts ~/.memnox/bin first on the login PATH, so an editor started from the dock meets the
// interceptors too. Printed always; written to a profile only after a person says yes, backed up, removed at uninstall.
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import type { Context } from "../ports/context.ts";
import { readBackups, restoreFromBackup, rewriteWithBackup } from "./backup.ts";

/** The owner name the login PATH line has in the backup manifest. */
const PATH_OWNER = "login-path";

const MARK = "# memnox: interceptors first (memnox uninstall removes this line)";

/** The profile a login shell of this person reads. */
export function profileFile(ctx: Pick<Context, "paths" | "env">): string {
  const home = ctx.paths.home;
  const shell = basename(ctx.env.SHELL ?? "");
  if (shell === "zsh") return join(home, ".zprofile");
  if (shell === "bash" && existsSync(join(home, ".bash_profile"))) return join(home, ".bash_profile");
  return join(home, ".profile");
}

/** `export PATH=…` with ~/.memnox/bin first, written with $HOME where it can be. */
export function pathLine(ctx: Pick<Context, "paths">): string {
  const { bin, home } = ctx.paths;
  const dir = bin.startsWith(`${home}/`) ? `$HOME/${bin.slice(home.length + 1)}` : bin;
  return `export PATH="${dir}:$PATH"  ${MARK}`;
}

export function addLoginPath(ctx: Pick<Context, "paths" | "env" | "clock">): { file: string; changed: boolean } {
  const file = profileFile(ctx);
  const line = pathLine(ctx);
  const r = rewriteWithBackup({
    backupDir: ctx.paths.backup,
    path: file,
    owner: PATH_OWNER,
    note: "login PATH",
    nowMs: ctx.clock.now(),
    transform: (text) => {
      if (text?.split("\n").includes(line)) return undefined;
      const before = text === undefined || text === "" ? "" : text.endsWith("\n") ? text : `${text}\n`;
      return `${before}${line}\n`;
    },
  });
  return { file, changed: r.changed };
}

/** The line out of every profile memnox put it in: the bytes back while nothing else changed, else only the line. */
export function removeLoginPath(ctx: Pick<Context, "paths">): { file: string; outcome: string }[] {
  return readBackups(ctx.paths.backup)
    .filter((b) => b.owners[PATH_OWNER] !== undefined)
    .map((b) => {
      const r = restoreFromBackup({
        backupDir: ctx.paths.backup,
        path: b.path,
        owners: [PATH_OWNER],
        strip: (text) => {
          const kept = text.split("\n").filter((l) => !l.endsWith(MARK));
          return kept.length === text.split("\n").length ? undefined : kept.join("\n");
        },
      });
      return { file: b.path, outcome: r.outcome };
    });
}
