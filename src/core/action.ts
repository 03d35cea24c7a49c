// What an agent is about to do, after resolution: the vocabulary every layer shares.
export const ACTION_CLASSES = ["read", "write", "destructive", "communication", "unknown"] as const;
export type ActionClass = (typeof ACTION_CLASSES)[number];

/** Where a request sat against the scope the session declared. */
export type ScopeFit = "in_scope" | "out_of_scope" | "undeclared";

export interface Action {
  /** `git.push-force`, `filesystem.read`, `shell.execute`, `mcp.github.merge_pull_request` */
  readonly name: string;
  readonly class: ActionClass;
  /** Absolute paths, hosts, branches, refspecs, the normalised command line: what the action acts on. */
  readonly targets: readonly string[];
  /** Raw call arguments by name; matched in-process only, recorded only as a digest. */
  readonly arguments: Readonly<Record<string, readonly string[]>>;
  /** Destination branch of a push (refspec destination), when the action names one. */
  readonly branch?: string;
  /** The CLI whose verb table produced this action, when one did. */
  readonly cli?: string;
  /** The targets as they may be stored and shown, when a credential in the call had to be masked out of them. */
  readonly shown?: readonly string[];
  /** Where it acts, when that is not where the line runs (`cd X && …`, `git -C X …`, `pushd X`): rules load there too. */
  readonly cwd?: string;
  /** Targets the line leaves open (a variable, a substitution, a glob nothing matched) and what each could be. */
  readonly possible?: readonly PossibleTarget[];
}

/** One open target and the protected paths it could name: a rule on one of them is treated as matching. */
export interface PossibleTarget {
  readonly target: string;
  /** Nothing is known of it but where it is (`$f`, `./$(cmd)`): a deny it could meet asks instead. */
  readonly bare: boolean;
  readonly could: readonly string[];
}

/** What may be stored or printed of an action's targets. */
export function shownTargets(action: Action): readonly string[] {
  return action.shown ?? action.targets;
}

const CLASS_RANK: Record<ActionClass, number> = { read: 0, write: 1, communication: 2, unknown: 3, destructive: 4 };

/** The most consequential of two classes, for an action built from several parts. */
export function heavierClass(a: ActionClass, b: ActionClass): ActionClass {
  return CLASS_RANK[a] >= CLASS_RANK[b] ? a : b;
}

export function isActionClass(v: unknown): v is ActionClass {
  return typeof v === "string" && (ACTION_CLASSES as readonly string[]).includes(v);
}
