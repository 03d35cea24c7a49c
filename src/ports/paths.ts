// Every file memnox keeps, derived once from HOME and MEMNOX_HOME; nothing below reads the environment for a path.
import { join } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import type { Env } from "./index.ts";

export interface Paths {
  readonly home: string;
  readonly root: string;
  readonly config: string;
  /** The mode and failOpen memnox itself last set: what a missing or damaged config.toml means after setup. */
  readonly sealed: string;
  readonly machinePolicies: string;
  readonly policiesRegistry: string;
  readonly db: string;
  /** The chain's newest row and its hash, sealed, kept outside the database so truncating or removing it shows. */
  readonly ledgerTip: string;
  /** One line per ledger row that could not be written: the count `status` and `doctor` report. */
  readonly ledgerUnwritten: string;
  readonly bin: string;
  /** The real binaries the interceptors stand in for, as found when they were installed (`{"git": "/usr/bin/git"}`). */
  readonly realBinaries: string;
  /** The copy of git's exec path whose `git` is the interceptor, so git's own children meet it too. */
  readonly gitExec: string;
  readonly backup: string;
  readonly kept: string;
  readonly keeper: string;
  readonly probation: string;
  readonly notice: string;
  readonly checkpoints: string;
  readonly daemonLog: string;
  /** The pid of a daemon started in the background (no service manager), written and removed by that daemon. */
  readonly daemonPid: string;
  /** What a background daemon prints, and when the last hook started one (its mtime). */
  readonly daemonOut: string;
  readonly sock: string;
  /** Where the daemon's egress proxy listens (`{host, port, pid}`), for `memnox run` and `memnox env`. */
  readonly egress: string;
  readonly overlays: string;
  readonly snapshots: string;
  readonly guard: string;
  readonly pending: string;
  readonly transcripts: string;
  readonly app: string;
  /** The agent wall's applier beside the app binary: what every agent's shell prefix names. */
  readonly applier: string;
  readonly memory: string;
  readonly keys: string;
  readonly stop: string;
  /** `<server>.json`: each proxied MCP server's tools as memnox classified them. */
  readonly mcp: string;
  /** The repositories `protect --hooks` put git hooks in, so uninstall finds them from anywhere. */
  readonly gitHooks: string;
  /** The last scan taken, which `agents list` and `status` read instead of scanning again. */
  readonly lastScan: string;
  /** The names people gave agents (`memnox agents name`). */
  readonly agentNames: string;
  /** The workspace credential `memnox login` wrote (0600): absent means no call is ever made. */
  readonly account: string;
  /** The workspace's rules as pulled, read by the policy loader beside the machine's own. */
  readonly orgPolicies: string;
  /** The workspace's conditions (fleet freezes) as pulled, read by the gate as state facts. */
  readonly orgConditions: string;
  /** The sync loop's state: last acknowledged row, when the workspace last answered, a revocation. */
  readonly sync: string;
  /** One file per path an agent's session (or a person) holds a lease on. */
  readonly leases: string;
  /** The budgets `memnox budget set` keeps; what is spent is counted from the ledger. */
  readonly budgets: string;
  /** The skills, subagents and instruction files a person accepted, by content hash. */
  readonly skills: string;
  /** The repositories memnox kept milestones in, so `uninstall --purge` takes its refs back out of each. */
  readonly milestoneRepos: string;
  /** The one-time codes refusals print, for `memnox allow-once <code>` (digests only). */
  readonly allowOnce: string;
}

export function memnoxPaths(env: Env): Paths {
  const home = env.HOME;
  if (!home)
    throw new MemnoxError("usage", "HOME is not set", "memnox keeps its files under $HOME/.memnox or $MEMNOX_HOME");
  const root = env.MEMNOX_HOME || join(home, ".memnox");
  const at = (name: string) => join(root, name);
  return {
    home,
    root,
    config: at("config.toml"),
    sealed: at("sealed.json"),
    machinePolicies: at("machine.policies.toml"),
    policiesRegistry: at("policies.json"),
    db: at("memnox.db"),
    ledgerTip: at("ledger-tip.json"),
    ledgerUnwritten: at("ledger-unwritten.jsonl"),
    bin: at("bin"),
    realBinaries: at("real-binaries.json"),
    gitExec: at("git-exec"),
    backup: at("backup"),
    kept: at("kept.json"),
    keeper: at("keeper.json"),
    probation: at("probation.json"),
    notice: at("notice"),
    checkpoints: at("checkpoints.json"),
    daemonLog: at("daemon.log"),
    daemonPid: at("daemon.pid"),
    daemonOut: at("daemon.out.log"),
    sock: at("memnox.sock"),
    egress: at("egress.json"),
    overlays: at("overlays.json"),
    snapshots: at("snapshots"),
    guard: at("guard"),
    pending: at("pending"),
    transcripts: at("transcripts"),
    app: join(root, "app", "memnox"),
    applier: join(root, "app", "memnox-wall"),
    memory: at("memory"),
    keys: at("keys"),
    stop: at("stop.json"),
    mcp: at("mcp"),
    gitHooks: at("git-hooks.json"),
    lastScan: at("scan.json"),
    agentNames: at("agents.json"),
    account: at("account.json"),
    orgPolicies: at("org.policies.json"),
    orgConditions: at("org-conditions.json"),
    sync: at("sync.json"),
    leases: at("leases"),
    budgets: at("budgets.json"),
    skills: at("skills.json"),
    milestoneRepos: at("milestone-repos.json"),
    allowOnce: at("allow-once"),
  };
}
