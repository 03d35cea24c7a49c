// `memnox login`, `logout`, `whoami`, `sync now`: the only commands that talk to anything, and only after login.
import { MemnoxError } from "../../../core/errors.ts";
import type { Context } from "../../../ports/context.ts";
import { setSetting } from "../../../state/config.ts";
import type { Account } from "../../../workspace/account.ts";
import type { PassReport } from "../../../workspace/pass.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { recordState } from "./_state-record.ts";

const JSON_FLAG = { type: "boolean", description: "structured output" } as const;
const JSON_ONLY = { json: JSON_FLAG } as const;
const LOGIN_ARGS = {
  url: { type: "string", description: "the control plane (default https://api.memnox.com)" },
  enforce: { type: "boolean", description: "start in enforce rather than the mode this machine is in" },
  open: {
    type: "boolean",
    default: true,
    description: "open the approval page in a browser",
    negativeDescription: "print the approval page's address instead of opening a browser",
  },
  json: JSON_FLAG,
} as const;

function recorder(ctx: Context) {
  return import("../../../ledger/index.ts").then((m) => m.createRecorder(ctx.paths, (t) => ctx.io.err(t)));
}

function passLines(r: PassReport): string[] {
  const lines = [`workspace ${r.workspace}, machine ${r.machineId}: mode set ${r.modeSet}, running ${r.modeRunning}`];
  if (r.modeChange)
    lines.push(`mode: ${r.modeChange.by} moved this machine from ${r.modeChange.from} to ${r.modeChange.to}`);
  for (const a of r.answers)
    lines.push(`held call ${a.holdId}: ${a.grant ? "approved" : "denied"} by ${a.by} in the workspace (${a.outcome})`);
  if (r.holdsUp > 0) lines.push(`held calls waiting for a person, sent up: ${r.holdsUp}`);
  lines.push(
    r.bundle.outcome === "applied"
      ? `rules: applied bundle ${r.bundle.hash} (${r.bundle.rules} rule(s))`
      : `rules: unchanged${r.bundle.hash ? ` (${r.bundle.hash})` : " (the workspace has published none)"}`,
  );
  lines.push(
    `sent: ${r.sent.accepted} new event(s)${r.sent.duplicates ? `, ${r.sent.duplicates} already there` : ""} in ${r.sent.batches} batch(es)${r.sent.more ? "; more on the next pass" : ""}`,
  );
  return lines;
}

async function pass(ctx: Context, account: Account): Promise<PassReport> {
  const { runPass } = await import("../../../workspace/sync.ts");
  using rec = await recorder(ctx);
  return runPass(ctx, account, (e) => void rec.record(e));
}

function openBrowser(ctx: Context, url: string): void {
  const opener = process.platform === "darwin" ? "open" : "xdg-open";
  try {
    Bun.spawn([opener, url], { stdin: "ignore", stdout: "ignore", stderr: "ignore", env: { ...ctx.env } }).unref();
  } catch {
    ctx.io.err(`memnox: could not start ${opener}; open the address above yourself\n`);
  }
}

interface Enrolled {
  readonly json: Record<string, unknown>;
  readonly lines: string[];
}

/**
 * The device-code enrolment `memnox login` runs (and `memnox setup --url`): the code printed, a person approves it,
 * the credential kept, the first sync pass. `say` prints while it waits; the result says what happened.
 */
export async function enrol(
  ctx: Context,
  opts: { url?: string | undefined; enforce?: boolean; open: boolean; say: (line: string) => void },
): Promise<Enrolled> {
  const { DEFAULT_URL, login: deviceLogin } = await import("../../../workspace/login.ts");
  const account = await deviceLogin(
    {
      paths: ctx.paths,
      version: ctx.version,
      platform: `${process.platform}-${process.arch}`,
      now: () => ctx.clock.now(),
      sleep: (ms) => Bun.sleep(ms),
      show: (code) => {
        opts.say(`To connect this machine, open ${code.verificationUriComplete}`);
        opts.say(`and confirm the code ${code.userCode} (good for ${Math.round(code.expiresIn / 60)} min).`);
        opts.say("Waiting for somebody with access to approve it...");
        if (opts.open) openBrowser(ctx, code.verificationUriComplete);
      },
    },
    { url: opts.url ?? DEFAULT_URL, ...(opts.enforce ? { mode: "enforce" as const } : {}) },
  );
  if (opts.enforce) {
    const { previous } = setSetting(ctx.paths.config, "mode", "enforce");
    if (previous.mode !== "enforce")
      recordState(ctx, "memnox.mode", `mode set to enforce at login (was ${previous.mode})`, "config");
  }
  recordState(ctx, "memnox.login", `enrolled in workspace ${account.workspace.name} as ${account.machineId}`, "config");
  let first: PassReport | undefined;
  let failed: string | undefined;
  try {
    first = await pass(ctx, account);
  } catch (e) {
    failed = e instanceof Error ? e.message : String(e);
  }
  return {
    json: {
      workspace: account.workspace,
      org: account.org,
      machineId: account.machineId,
      owner: account.owner,
      url: account.url,
      firstPass: first ?? null,
      ...(failed ? { firstPassError: failed } : {}),
    },
    lines: [
      `connected to workspace ${account.workspace.name} as machine ${account.machineId}${account.owner ? ` (owner ${account.owner})` : " (unowned)"}`,
      ...(first ? passLines(first) : [`the first sync did not complete (${failed}); the daemon retries`]),
      `the credential is in ${ctx.paths.account} (owner only); memnox logout forgets it`,
    ],
  };
}

export const login: CommandFactory = (ctx) =>
  command({
    meta: { name: "login", description: "connect this machine to a workspace, approved by somebody with access" },
    args: LOGIN_ARGS,
    async run({ args }) {
      const say = (line: string) => (args.json ? ctx.io.err(`${line}\n`) : ctx.io.out(`${line}\n`));
      const done = await enrol(ctx, { url: args.url, enforce: args.enforce === true, open: args.open !== false, say });
      emit(ctx, args.json, done.json, () => done.lines);
      return 0;
    },
  });

export const logout: CommandFactory = (ctx) =>
  command({
    meta: { name: "logout", description: "forget the workspace credential; the rules already pulled stay in force" },
    args: JSON_ONLY,
    async run({ args }) {
      const { readAccount, removeAccount } = await import("../../../workspace/account.ts");
      const { removeState } = await import("../../../workspace/state.ts");
      let account: Account | undefined;
      try {
        account = readAccount(ctx.paths.account);
      } catch {
        // A damaged account file is forgotten all the same.
      }
      const had = removeAccount(ctx.paths.account);
      removeState(ctx.paths.sync);
      if (had)
        recordState(
          ctx,
          "memnox.logout",
          `forgot the credential for workspace ${account?.workspace.name ?? "?"}`,
          "config",
        );
      emit(
        ctx,
        args.json,
        { forgot: had, workspace: account?.workspace ?? null, machineId: account?.machineId ?? null },
        () =>
          had
            ? [
                `forgot the credential for workspace ${account?.workspace.name ?? "?"} (machine ${account?.machineId ?? "?"})`,
                `the rules pulled from it stay in force (${ctx.paths.orgPolicies}); revoking the machine is done in the workspace`,
              ]
            : ["this machine was not connected to a workspace; nothing changed"],
      );
      return 0;
    },
  });

export const whoami: CommandFactory = (ctx) =>
  command({
    meta: { name: "whoami", description: "which workspace this machine is enrolled in, if any" },
    args: JSON_ONLY,
    async run({ args }) {
      const { readAccount } = await import("../../../workspace/account.ts");
      const { readState } = await import("../../../workspace/state.ts");
      const account = readAccount(ctx.paths.account);
      if (!account) {
        emit(ctx, args.json, { enrolled: false }, () => ["not connected to a workspace: nothing leaves this machine"]);
        return 1;
      }
      const s = readState(ctx.paths.sync, account.machineId);
      const status = s.revokedAt
        ? `revoked (heard ${s.revokedAt}): the loop is stopped`
        : s.unreachableSince
          ? `unreachable since ${s.unreachableSince} (${s.lastError ?? "no answer"}): verdicts are marked stale`
          : s.lastContactAt
            ? `last answered ${s.lastContactAt}`
            : "not synced yet";
      emit(
        ctx,
        args.json,
        {
          enrolled: true,
          workspace: account.workspace,
          org: account.org,
          machineId: account.machineId,
          owner: account.owner,
          url: account.url,
          enrolledAt: account.enrolledAt,
          lastContactAt: s.lastContactAt ?? null,
          unreachableSince: s.unreachableSince ?? null,
          revokedAt: s.revokedAt ?? null,
        },
        () => [
          `workspace ${account.workspace.name} (${account.org.name}) at ${account.url}`,
          `machine   ${account.machineId}, owner ${account.owner ?? "none (approved by an operator)"}`,
          `sync      ${status}`,
        ],
      );
      return 0;
    },
  });

export const sync: CommandFactory = (ctx) =>
  command({
    meta: { name: "sync", description: "pull the rules and send what happened, now" },
    default: "now",
    subCommands: {
      now: command({
        meta: { name: "now", description: "one pass now rather than at the daemon's next heartbeat" },
        args: JSON_ONLY,
        async run({ args }) {
          const { enrolled, isRevoked } = await import("../../../workspace/sync.ts");
          const account = enrolled(ctx);
          if (isRevoked(ctx, account))
            throw new MemnoxError(
              "revoked",
              `the workspace revoked ${account.machineId}, so nothing is sent; the rules already pulled stay in force`,
              "memnox logout forgets the credential",
            );
          const r = await pass(ctx, account);
          emit(ctx, args.json, r, () => passLines(r));
          return 0;
        },
      }),
    },
  });
