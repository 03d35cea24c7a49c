// The console holds no logic of its own: every page reads, and every form writes, by calling a /v1/ route in process as
// the signed-in person, through the same role check (roles.ts) and the same handler a script's request meets.
import type { Session } from "../auth.ts";
import type { Call } from "../http.ts";
import { authorize } from "../roles.ts";
import { type ApiKey, callRoute, type Invoke } from "../routes/in-process.ts";
import { ROUTES } from "../routes/index.ts";

/** A file a form carried: what the browser named it and its bytes. */
export interface Uploaded {
  readonly name: string;
  readonly type: string;
  readonly bytes: Uint8Array;
}

/** A console request: the API's call plus the browser session and, on a POST, the form it sent. */
export interface ConsoleCall extends Call {
  readonly session: Session | undefined;
  readonly form: URLSearchParams;
  /** The files a multipart form carried, by field name (none on any other form). */
  readonly files?: ReadonlyMap<string, Uploaded>;
  /** The server's log: what a person is not shown (why a sign-in was refused) goes here. */
  readonly log: (line: string) => void;
}

export type { ApiKey, Invoke } from "../routes/in-process.ts";

const byKey = new Map(ROUTES.map((r) => [`${r.method} ${r.path}`, r]));

/**
 * Calls `key` ("POST /v1/machines/:id/mode") as `c.who`: authorize() then the handler, exactly as the HTTP face does.
 * A refusal or failure throws the route's own HttpError, which the page shows; success returns its JSON (typed by
 * the caller, which names the route's own view type).
 */
export async function invoke<T>(c: ConsoleCall, key: ApiKey, opts: Invoke = {}): Promise<T> {
  const route = byKey.get(key);
  if (!route) throw new Error(`the console calls ${key}, which is not in the route table`);
  return callRoute<T>(route, c, c.who, opts);
}

/** Whether `c.who` could call `key`: what decides if a page draws a control (the server still checks on the call). */
export function may(c: ConsoleCall, key: ApiKey): boolean {
  const route = byKey.get(key);
  if (!route) return false;
  try {
    authorize(c.who, route);
    return true;
  } catch {
    return false;
  }
}
