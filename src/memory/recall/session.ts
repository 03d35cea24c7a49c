// The one call a hook makes: open the store quietly, find the session's project, and ask for reminders.
import { existsSync } from "node:fs";
import type { Env, Git } from "../../ports/index.ts";
import type { Paths } from "../../ports/paths.ts";
import { MACHINE_IDS, projectFromCwd, sessionQuery } from "../format/project.ts";
import { memoryDir } from "../pages/dir.ts";
import { openStore } from "../pages/store.ts";
import { heldReminders } from "./held.ts";
import { type Reminder, remindersFor } from "./remind.ts";

interface SessionContext {
  readonly env: Env;
  readonly paths: Paths;
  readonly git: Git;
  readonly cwd: string;
  readonly now: () => number;
}

interface SessionReminderOptions {
  readonly budgetTokens?: number;
  readonly alreadySaid?: ReadonlySet<string>;
  readonly limit?: number;
  readonly floor?: number;
}

/** Reminders for a prompt in the session's repository; an absent or unreadable store is silence, never an error. */
export async function sessionReminders(
  s: SessionContext,
  prompt: string | undefined,
  opts: SessionReminderOptions = {},
): Promise<Reminder[]> {
  const dir = memoryDir(s.env, s.paths, s.cwd);
  if (!existsSync(dir)) return [];
  let store: ReturnType<typeof openStore> | undefined;
  try {
    store = openStore({ dir, now: s.now, env: s.env });
    const project = await projectFromCwd(s.git, s.cwd);
    const projects = [project.id, ...MACHINE_IDS];
    const text = prompt ?? (await sessionQuery(s.git, s.cwd));
    const found = remindersFor({ store, projects, prompt: text, ...opts });
    // A session's start with nothing the folder's words match still hears what its project holds.
    if (prompt !== undefined || found.length > 0) return found;
    return heldReminders({
      store,
      projects: [project.id],
      ...(opts.alreadySaid ? { alreadySaid: opts.alreadySaid } : {}),
      ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
      ...(opts.budgetTokens !== undefined ? { budgetTokens: opts.budgetTokens } : {}),
    });
  } catch {
    return [];
  } finally {
    store?.close();
  }
}
