// `memnox cloud init --org <name> --admin <email>`: an organization, its workspace, its first admin and a one-time
// token for that admin. The token is printed once and stored only as its hash.
import { MemnoxError } from "../core/errors.ts";
import type { Context } from "../ports/context.ts";
import { openStore } from "./database.ts";
import { HttpError } from "./http-error.ts";
import { createOrg, type NewOrg } from "./store/people.ts";

interface InitArgs {
  readonly org: string;
  readonly admin: string;
  readonly db?: string | undefined;
  readonly data?: string | undefined;
  /** Who ran it, for the audit trail. */
  readonly by: string;
}

export async function initCloud(ctx: Context, a: InitArgs): Promise<NewOrg> {
  if (!/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,80}$/.test(a.org))
    throw new MemnoxError("usage", `\`${a.org}\` is not an organization name`, "letters, digits, spaces, . _ -");
  if (!/^[^@\s]+@[^@\s]+$/.test(a.admin)) throw new MemnoxError("usage", `\`${a.admin}\` is not an email address`);
  const say = (line: string) => ctx.io.err(`memnox cloud: ${line}\n`);
  const store = await openStore(ctx, { db: a.db, data: a.data, say, max: 2 });
  try {
    return await createOrg(store.db, a.org, a.admin.toLowerCase(), a.by);
  } catch (e) {
    if (e instanceof HttpError) throw new MemnoxError("conflict", e.message);
    throw e;
  } finally {
    await store.close();
  }
}
