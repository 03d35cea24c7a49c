// A person's own command named by the one resolver: what the daemon (or, with none, the seam) fills into its row.
import type { EventInput } from "../core/event.ts";
import { resolveArgv } from "../resolve/resolve.ts";

/** The row with its action named by the one resolver: operation, class and the targets as shown. */
export function personRow(event: EventInput, argv: readonly string[], home: string): EventInput {
  const resolution = resolveArgv(argv, { cwd: event.cwd ?? "/", home });
  const action = resolution.actions.find((a) => a.name !== "shell.execute") ?? resolution.actions[0];
  if (!action) return event;
  return {
    ...event,
    operation: action.name,
    classes: [action.class],
    resourceRef: (action.shown ?? action.targets).join(" ").slice(0, 512),
  };
}
