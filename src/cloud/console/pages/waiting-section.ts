// One section of "waiting on you": waiting.ts lists them and review.ts adds its own, so the shape stands apart.
import type { ConsoleCall } from "../call.ts";
import type { Html } from "../html.ts";
import type { Me } from "../layout.ts";

export interface WaitingSection {
  readonly id: string;
  readonly title: string;
  /** The section's content, or undefined while nothing in it is owed. */
  load(c: ConsoleCall, me: Me): Promise<Html | undefined>;
}
