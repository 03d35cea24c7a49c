// Who may do what: three roles that differ in what they may change, never in what they may see, and three kinds of act.
// The one place a route's requirement is checked against the caller; every route names its requirement in the table.
import { HttpError } from "./http-error.ts";

/** Who is calling, as auth.ts found them: a person, an operator, or a machine. */
interface Scope {
  readonly orgId: string;
  readonly workspaceId: string;
  readonly tokenId: string;
}

export type Principal =
  | (Scope & {
      readonly kind: "person";
      readonly memberId: string;
      readonly email: string;
      readonly role: Role;
      /**
       * A bearer token of theirs, the console's session a sign-in made, or a chat command from the chat account linked
       * to them: only the session does a person's own acts.
       */
      readonly via: "token" | "session" | "chat";
    })
  | (Scope & { readonly kind: "operator"; readonly name: string; readonly role: Role })
  | (Scope & { readonly kind: "machine"; readonly machineId: string });

export const ROLES = ["viewer", "reviewer", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** What a route requires: nobody (public), a machine's credential, or a person or operator holding at least a role. */
export type Need = "public" | "machine" | Role;

/**
 * Who may do it, beyond the role. `automation`: an operator token too (what the spec gives automation: reading,
 * enrolling a CI runner unowned, proposing, freezing, halting, relaying documents). `person`: a person, by a token of
 * theirs or signed in. `signed-in`: a person's own act (approving, answering, rejecting, granting power), only from
 * the console's session a sign-in made, never from a token, which an admin or an automation could have minted.
 */
export type Acts = "automation" | "person" | "signed-in";

interface Requirement {
  readonly method: string;
  readonly needs: readonly Need[];
  readonly by?: Acts;
}

export function isRole(v: unknown): v is Role {
  return typeof v === "string" && (ROLES as readonly string[]).includes(v);
}

export function atLeast(role: Role, need: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(need);
}

/** What kind of act a route is: reading is automation's unless said otherwise, changing a person's. */
function actsOf(r: Requirement): Acts {
  return r.by ?? (r.method === "GET" ? "automation" : "person");
}

/** Whether `who` acts as a person signed in to the console (not a token, whoever minted it). */
export function signedIn(who: Principal | undefined): boolean {
  return who?.kind === "person" && who.via === "session";
}

/** Throws the HTTP refusal unless `who` meets one of `needs` and may do this kind of act. */
export function authorize(who: Principal | undefined, r: Requirement): void {
  const { needs } = r;
  if (needs.includes("public")) return;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token: Authorization: Bearer <token>");
  const ok = needs.some((n) =>
    n === "machine" ? who.kind === "machine" : n !== "public" && who.kind !== "machine" && atLeast(who.role, n),
  );
  if (!ok) {
    const roles = needs.filter((n): n is Role => n !== "machine" && n !== "public");
    const wanted = roles.length > 0 ? `the ${roles.join(" or ")} role` : "a machine's credential";
    const held = who.kind === "machine" ? "a machine's credential" : `the ${who.role} role`;
    throw new HttpError(403, "forbidden", `this needs ${wanted}; the token holds ${held}`);
  }
  if (who.kind === "machine") return;
  const acts = actsOf(r);
  if (who.kind === "operator" && acts !== "automation")
    throw new HttpError(
      403,
      "not_automation",
      "an operator token is automation, and this is a person's to do: a person does it, signed in or with a token of their own",
    );
  if (acts === "signed-in" && !signedIn(who))
    throw new HttpError(
      403,
      "sign_in_required",
      "this is a person's own act: it is done signed in to the console, never with a token (anybody who minted one could)",
    );
}
