// `memnox doctor --wiring`: is each seam actually in the path, read from the configuration (not attempted: that is
// --prove). One line per seam; every failing line carries the one command that fixes it.

import { existsSync, readdirSync, readlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { pingDaemon } from "../gate/remote/client.ts";
import { openLedger, unwrittenCount } from "../ledger/index.ts";
import { loadRuleSet } from "../policy/load/index.ts";
import type { Context } from "../ports/context.ts";
import { readConfig } from "../state/config.ts";
import { egressBlindSpotsLine, proxyUrl, readEgress } from "../state/egress.ts";
import { stopInForce } from "../state/stop.ts";
import { detectAgents } from "./agents.ts";
import { clientDef } from "./clients.ts";
import { gitHookState } from "./git-hooks.ts";
import { agentHookState } from "./hooks/install.ts";
import { interceptorReach } from "./interceptor-reach.ts";
import { interceptorState } from "./interceptors.ts";
import { readKept, setupRan } from "./kept.ts";
import { readClientFile, readClientFiles } from "./read.ts";
import { installedFile, SESSION_CLIENTS, sessionServerKeptOff } from "./session-server.ts";
import type { WiringLine } from "./wiring-lines.ts";
import { isSessionServer, unwrapCommand } from "./wrapping.ts";

const RUN = 'start the agent with "memnox run -- <agent>", which sets PATH for it';

function config(ctx: Context): WiringLine {
  const stop = stopInForce(ctx.paths.stop, ctx.clock.now());
  if (stop) {
    const why = stop.reason ? ` (${stop.reason})` : "";
    return {
      seam: "config",
      status: "fail",
      words: `protection is stopped by ${stop.by} until ${stop.until}${why}: every seam lets everything through`,
      fix: "memnox start",
    };
  }
  const mode = readConfig(ctx.paths.config).mode;
  if (mode === "off")
    return {
      seam: "config",
      status: "fail",
      words: "mode is off: no seam rules on anything",
      fix: "memnox config set mode observe",
    };
  if (mode === "observe")
    return { seam: "config", status: "ok", words: "mode is observe — verdicts are recorded and nothing is denied" };
  if (mode === "advise")
    return { seam: "config", status: "ok", words: "mode is advise — verdicts are said, and nothing is denied" };
  return { seam: "config", status: "ok", words: "mode is enforce — verdicts are applied" };
}

function rules(ctx: Context): WiringLine {
  const set = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
  const count = set.checked.filter((c) => c.applies).reduce((n, c) => n + c.rules.length, 0);
  const first = set.problems[0];
  if (first) {
    return {
      seam: "rules",
      status: "fail",
      words: `${set.problems.length} problem(s) in the rules in force, the first in ${first.file}${first.line ? `:${first.line}` : ""}: ${first.message}`,
      fix: "memnox policy check",
    };
  }
  if (count === 0)
    return {
      seam: "rules",
      status: "warn",
      words: "no rules in force here: every seam lets everything through",
      fix: "memnox protect --yes",
    };
  const files = set.files.map((f) => basename(f)).join(", ");
  return { seam: "rules", status: "ok", words: `${count} rule(s) from ${files} · v${set.hash.slice(0, 12)}` };
}

function interceptors(ctx: Context): WiringLine[] {
  const s = interceptorState(ctx);
  if (s.links.length === 0) {
    return [
      {
        seam: "interceptors",
        status: "fail",
        words: `none installed in ${s.dir}`,
        fix: "memnox protect --interceptors",
      },
      { seam: "path", status: "idle", words: "no interceptors to put on PATH" },
    ];
  }
  const head: WiringLine = s.broken.length
    ? {
        seam: "interceptors",
        status: "fail",
        words: `${s.broken.length} of ${s.links.length} point at a memnox binary that is gone: ${s.broken.join(", ")}`,
        fix: "memnox setup",
      }
    : { seam: "interceptors", status: "ok", words: `${s.links.length} installed` };
  const path: WiringLine = s.path.ahead
    ? { seam: "path", status: "ok", words: `${s.dir} comes first on PATH` }
    : {
        seam: "path",
        status: "warn",
        words: `interceptors are installed but are not ahead of the real binaries on PATH${s.path.behind[0] ? ` (${s.path.behind[0].path} answers first)` : ""}`,
        fix: RUN,
      };
  return [head, path];
}

function hooks(ctx: Context): WiringLine[] {
  const kept = readKept(ctx.paths.kept);
  return detectAgents(ctx)
    .filter((a) => a.installed)
    .map((a): WiringLine => {
      const seam = `hooks:${a.agent}`;
      if (kept?.takenOut.includes(a.agent)) {
        const fix =
          a.agent === "claude-code"
            ? "memnox protect --claude-hook"
            : `take ${a.agent} out of takenOut in ${ctx.paths.kept}`;
        return { seam, status: "idle", words: `${a.label}: taken out on purpose, and kept out`, fix };
      }
      const s = agentHookState(ctx, a.agent);
      if (s.presence === "unreadable")
        return {
          seam,
          status: "fail",
          words: `${s.file} does not parse: ${s.problem ?? ""}`,
          fix: `fix ${s.file}, then memnox setup`,
        };
      if (s.presence === "absent")
        return { seam, status: "fail", words: `${a.label} is installed but not hooked`, fix: "memnox setup" };
      if (!s.launcherExists)
        return {
          seam,
          status: "fail",
          words: `${a.label}'s hook starts ${s.launcher?.join(" ") ?? "nothing"}, which is gone, so it lets every call through`,
          fix: "memnox setup",
        };
      if (s.presence === "partial")
        return {
          seam,
          status: "warn",
          words: `only some of memnox's hook entries are in ${s.file}`,
          fix: "memnox setup",
        };
      if (s.trust && !s.trust.active)
        return {
          seam,
          status: "warn",
          words: `${a.label}: ${s.trust.words}`,
          ...(s.trust.step ? { fix: s.trust.step } : {}),
        };
      return { seam, status: "ok", words: `${a.label}: hooked (${s.trust?.words ?? "active"})` };
    });
}

/** Per hooked agent with a mechanism of its own (Codex, Gemini CLI): whether its shell commands meet the interceptors. */
async function gitHooks(ctx: Context): Promise<WiringLine[]> {
  const s = await gitHookState(ctx, ctx.cwd);
  if (!s) return [];
  const ours = s.hooks.filter((h) => h.ours).map((h) => h.hook);
  if (s.missing)
    return [
      {
        seam: "git-hooks",
        status: "fail",
        words: `the hooks in ${s.dir} start ${s.missing}, which is gone`,
        fix: "memnox protect --hooks",
      },
    ];
  if (ours.length === 0)
    return [
      { seam: "git-hooks", status: "idle", words: `not installed in ${s.repository}`, fix: "memnox protect --hooks" },
    ];
  if (ours.length < s.hooks.length)
    return [
      {
        seam: "git-hooks",
        status: "warn",
        words: `only ${ours.join(", ")} in ${s.dir}`,
        fix: "memnox protect --hooks",
      },
    ];
  return [{ seam: "git-hooks", status: "ok", words: `${ours.join(" and ")} in ${s.dir}` }];
}

async function proxy(ctx: Context): Promise<WiringLine> {
  const stdio: string[] = [];
  const through: string[] = [];
  const gone: string[] = [];
  let remote = 0;
  for (const r of await readClientFiles({ home: ctx.paths.home, cwd: ctx.cwd, env: ctx.env })) {
    if (!r.ok) continue;
    for (const e of r.servers) {
      if (isSessionServer(e.name, e.command, e.args) || e.disabled) continue;
      if (e.transport === "http" || e.transport === "sse") remote++;
      if (e.transport !== "stdio" || e.command === undefined) continue;
      stdio.push(e.name);
      if (unwrapCommand(e.command, e.args ?? [])) {
        through.push(e.name);
        if (!existsSync(e.command)) gone.push(e.name);
      }
    }
  }
  const remoteWords = remote ? `; ${remote} remote, which the proxy cannot stand in front of` : "";
  if (stdio.length === 0)
    return { seam: "proxy", status: "idle", words: `no MCP server here starts on this machine${remoteWords}` };
  if (gone.length)
    return {
      seam: "proxy",
      status: "fail",
      words: `${gone.join(", ")} start a memnox binary that is gone, so they do not start at all`,
      fix: "memnox mcp wrap",
    };
  const outside = stdio.filter((n) => !through.includes(n));
  if (outside.length)
    return {
      seam: "proxy",
      status: "warn",
      words: `${outside.length} of ${stdio.length} MCP server(s) not through the proxy: ${outside.join(", ")}${remoteWords}`,
      fix: "memnox mcp wrap",
    };
  return {
    seam: "proxy",
    status: "ok",
    words: `all ${stdio.length} MCP server(s) routed through the proxy${remoteWords}`,
  };
}

async function session(ctx: Context): Promise<WiringLine> {
  if (sessionServerKeptOff(ctx.paths.kept)) {
    return {
      seam: "session",
      status: "idle",
      words: "the session tools were taken out on purpose",
      fix: "memnox mcp session on",
    };
  }
  const have: string[] = [];
  const missing: string[] = [];
  for (const client of SESSION_CLIENTS) {
    const file = installedFile(ctx, client);
    if (!file) continue;
    const r = await readClientFile(file);
    const there = r?.ok === true && r.servers.some((e) => isSessionServer(e.name, e.command, e.args));
    (there ? have : missing).push(clientDef(client).label);
  }
  if (have.length + missing.length === 0)
    return { seam: "session", status: "idle", words: "no agent to give the session tools to" };
  if (missing.length)
    return {
      seam: "session",
      status: "warn",
      words: `memnox-session is not in ${missing.join(", ")}`,
      fix: "memnox mcp session on",
    };
  return { seam: "session", status: "ok", words: `memnox-session in ${have.join(", ")}` };
}

/** Whether the daemon answers a ping (a stale socket file does not). */
async function answers(sock: string): Promise<boolean> {
  return (await pingDaemon(sock, { timeoutMs: 500 })) !== undefined;
}

async function daemon(ctx: Context): Promise<{ readonly line: WiringLine; readonly up: boolean }> {
  if (!existsSync(ctx.paths.sock)) {
    // Before setup no daemon is expected; after it, nothing keeps new agents and servers under memnox without one.
    const words = "not running: the seams decide in process on the same rules";
    return {
      line: setupRan(ctx.paths.kept)
        ? {
            seam: "daemon",
            status: "warn",
            words: `${words}, but nothing puts back a hook that is taken out or wraps a new MCP server`,
            fix: "memnox daemon --background",
          }
        : { seam: "daemon", status: "ok", words },
      up: false,
    };
  }
  if (await answers(ctx.paths.sock))
    return { line: { seam: "daemon", status: "ok", words: `answering on ${ctx.paths.sock}` }, up: true };
  return {
    line: {
      seam: "daemon",
      status: "warn",
      words: `${ctx.paths.sock} is there but nothing answers; seams evaluate in process`,
      fix: "memnox daemon --background",
    },
    up: false,
  };
}

/** Where agents' web traffic is ruled, and what the proxy cannot see whichever one runs. */
function egress(ctx: Context, daemonUp: boolean): WiringLine {
  const blind = egressBlindSpotsLine();
  const at = readEgress(ctx.paths);
  if (at && daemonUp)
    return { seam: "egress", status: "ok", words: `the daemon's proxy listens on ${proxyUrl(at)}; ${blind}` };
  return {
    seam: "egress",
    status: "idle",
    words: `no daemon proxy listens; memnox run starts one of its own for its agent; ${blind}`,
  };
}

function ledger(ctx: Context): WiringLine {
  const lost = unwrittenCount(ctx.paths);
  if (lost > 0)
    return {
      seam: "ledger",
      status: "warn",
      words: `${lost} row(s) could not be written (${ctx.paths.ledgerUnwritten})`,
      fix: "memnox verify",
    };
  if (!existsSync(ctx.paths.db))
    return { seam: "ledger", status: "idle", words: 'nothing recorded yet, so "memnox why" has nothing to explain' };
  using db = openLedger(ctx.paths, { busyTimeoutMs: 1000 });
  const tip = db.tip();
  if (!tip)
    return { seam: "ledger", status: "idle", words: 'nothing recorded yet, so "memnox why" has nothing to explain' };
  return { seam: "ledger", status: "ok", words: `${tip.seq} row(s) recorded in ${ctx.paths.db}` };
}

/** Whether a link in ~/.memnox/bin starts the stable copy (from source they start bun with the checkout instead). */
function linksStartApp(ctx: Context): boolean {
  return readdirOrEmpty(ctx.paths.bin).some((n) => {
    try {
      return readlinkSync(join(ctx.paths.bin, n)) === ctx.paths.app;
    } catch {
      return false;
    }
  });
}

function readdirOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function app(ctx: Context): WiringLine[] {
  if (!readKept(ctx.paths.kept) || existsSync(ctx.paths.app) || !linksStartApp(ctx)) return [];
  return [
    {
      seam: "app",
      status: "fail",
      words: `${ctx.paths.app} is gone, and every hook and link starts it`,
      fix: "memnox setup",
    },
  ];
}

export async function wiringLines(ctx: Context): Promise<WiringLine[]> {
  return [
    config(ctx),
    rules(ctx),
    ...app(ctx),
    ...interceptors(ctx),
    ...hooks(ctx),
    ...interceptorReach(ctx),
    ...(await gitHooks(ctx)),
    await proxy(ctx),
    await session(ctx),
    ...daemonAndEgress(ctx, await daemon(ctx)),
    ledger(ctx),
  ];
}

function daemonAndEgress(ctx: Context, d: { readonly line: WiringLine; readonly up: boolean }): WiringLine[] {
  return [d.line, egress(ctx, d.up)];
}
