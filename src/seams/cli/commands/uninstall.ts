// `memnox uninstall`: every seam out, and for each file whether its bytes came back or only memnox's entries went.
import { clientDef } from "../../../wire/clients.ts";
import { type UninstallReport, uninstallMachine } from "../../../wire/uninstall.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit, pad } from "../output.ts";
import { removedBecause } from "./_mcp-report.ts";
import { homeWords } from "./_setup-report.ts";
import { recordState } from "./_state-record.ts";
import { purgeRepos } from "./_uninstall-repos.ts";

const OUTCOME: Readonly<Record<string, string>> = {
  restored: "restored byte for byte from the backup",
  removed: `took out only memnox's entries: ${removedBecause(undefined)}`,
};

interface FileLine {
  readonly label: string;
  readonly file: string;
  readonly status: string;
  readonly problem?: string | undefined;
  readonly sharedWith?: readonly string[] | undefined;
}

function fileLines(what: string, files: readonly FileLine[]) {
  const lines = files.flatMap((f) => {
    if (f.status === "refused" || f.status === "unparsable")
      return [`${f.label}: ${f.file} left as it is: ${f.problem ?? f.status}`];
    const words =
      f.status === "removed" ? `took out only memnox's entries: ${removedBecause(f.sharedWith)}` : OUTCOME[f.status];
    return words ? [`${f.label}: ${f.file} ${words}`] : [];
  });
  return lines.map((l, i) => `  ${pad(i === 0 ? what : "", 13)} ${l}`);
}

function renderUninstall(r: UninstallReport): string[] {
  const row = (k: string, v: string) => `  ${pad(k, 13)} ${v}`;
  const hooks = r.hooks.map((h) => ({
    label: h.label,
    file: h.file,
    status: h.status,
    problem: h.problem?.message,
    sharedWith: h.sharedWith,
  }));
  const mcp = r.mcp.files.map((f) => ({
    label: clientDef(f.client).label,
    file: f.file,
    status: f.status,
    problem: f.problem?.message,
    sharedWith: f.sharedWith,
  }));
  const session = r.session.files.map((s) => ({
    label: clientDef(s.client).label,
    file: s.file,
    status: s.status,
    problem: s.problem,
    sharedWith: s.sharedWith,
  }));
  const git = r.gitHooks.flatMap((g) =>
    g.hooks
      .filter((h) => h.status !== "missing")
      .map(
        (h) =>
          `${h.path}: ${h.status === "restored" ? "the hook from before is back" : h.status}${h.words ? ` (${h.words})` : ""}`,
      ),
  );
  return [
    "memnox uninstall",
    row(
      "interceptors",
      `removed ${r.interceptors.removed.length} from ${r.interceptors.dir}${r.interceptors.kept.length ? `; left ${r.interceptors.kept.join(", ")}, which are not memnox's` : ""}`,
    ),
    ...git.map((l, i) => row(i === 0 ? "git hooks" : "", l)),
    ...fileLines("hooks", hooks),
    ...fileLines("mcp", mcp),
    ...fileLines("session", session),
    ...(r.native.outcome === "restored" || r.native.outcome === "removed"
      ? [row("native", `Claude Code's permissions: ${r.native.file} ${OUTCOME[r.native.outcome]}`)]
      : []),
    ...r.loginPath.map((p) => row("PATH", `${p.file} ${OUTCOME[p.outcome] ?? p.outcome}`)),
    ...r.shells.map((p) => row("commands", `${p.file} ${OUTCOME[p.outcome] ?? p.outcome}`)),
    row("daemon", r.daemon.words),
    row("kept", r.kept ? "kept.json removed: nothing keeps the boundary now" : "kept.json was not there"),
    ...(r.repos ?? []).map((p, i) =>
      row(
        i === 0 ? "milestones" : "",
        p.problem
          ? `${p.repo}: memnox's refs could not be taken out (${p.problem})`
          : `${p.repo}: ${p.refs} ref(s) under refs/memnox/ taken out, with the ${p.objects} object(s) only they kept${p.packed ? `; ${p.packed} already packed by git go at its next gc` : ""}`,
      ),
    ),
    ...(r.teamFiles ?? []).map((f, i) =>
      row(
        i === 0 ? "team rules" : "",
        f.outcome === "removed" ? `${f.path} removed, as setup wrote it` : `${f.path} stays: ${f.why}`,
      ),
    ),
    ...(r.links?.length ? [row("links", `${r.links.join(", ")} removed`)] : []),
    r.purged
      ? row("purged", `${r.purged} deleted, history and rules included; memnox is off this machine`)
      : row(
          "kept",
          "the memnox binary, your history and your rules stay: ~/.memnox/machine.policies.toml and memnox.policies.toml in repositories; memnox uninstall --purge deletes them too",
        ),
  ];
}

function failed(r: UninstallReport): boolean {
  const bad = (s: string) => s === "refused" || s === "unparsable";
  return (
    r.hooks.some((h) => bad(h.status)) ||
    r.mcp.files.some((f) => bad(f.status)) ||
    r.session.files.some((s) => bad(s.status))
  );
}

export const uninstall: CommandFactory = (ctx) =>
  command({
    meta: { name: "uninstall", description: "take every seam back out, and put every backup back" },
    args: {
      purge: { type: "boolean", description: "also delete ~/.memnox, history and rules included" },
      json: { type: "boolean", description: "structured output" },
    },
    async run({ args }) {
      const purge = args.purge === true;
      const r = await uninstallMachine(ctx, { purge, purgeRepos: () => purgeRepos(ctx) });
      if (!r.purged) recordState(ctx, "memnox.uninstall", "every seam taken out");
      emit(ctx, args.json, r, () => renderUninstall(r).map(homeWords(ctx.paths.home)));
      return failed(r) ? 1 : 0;
    },
  });
