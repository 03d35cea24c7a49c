// Who may do what: three roles that differ in what they may change, never in what they may see. The one place a
// route's requirement is checked against the caller; every route names its requirement in the route table.
import type { Principal } from "./auth.ts";
import { HttpError } from "./http.ts";

export const ROLES = ["viewer", "reviewer", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** What a route requires: nobody (public), a machine's credential, or a person or operator holding at least a role. */
export type Need = "public" | "machine" | Role;

export function isRole(v: unknown): v is Role {
  return typeof v === "string" && (ROLES as readonly string[]).includes(v);
}

export function atLeast(role: Role, need: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(need);
}

/** Throws the HTTP refusal unless `who` meets one of `needs`; a machine never passes a role and a person never `machine`. */
export function authorize(who: Principal | undefined, needs: readonly Need[]): void {
  if (needs.includes("public")) return;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token: Authorization: Bearer <token>");
  const ok = needs.some((n) =>
    n === "machine" ? who.kind === "machine" : n !== "public" && who.kind !== "machine" && atLeast(who.role, n),
  );
  if (ok) return;
  const roles = needs.filter((n): n is Role => n !== "machine" && n !== "public");
  const wanted = roles.length > 0 ? `the ${roles.join(" or ")} role` : "a machine's credential";
  const held = who.kind === "machine" ? "a machine's credential" : `the ${who.role} role`;
  throw new HttpError(403, "forbidden", `this needs ${wanted}; the token holds ${held}`);
}
