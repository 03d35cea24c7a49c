// Which capabilities can change something outside this machine. Pure: decided from verb tables, classes and
// whether a server is hosted or holds a credential, never from a guess about what a name means.
import type { ActionClass } from "../core/action.ts";
import type { VerbEntry } from "../resolve/types.ts";

/** CLIs that mostly act on the local tree: only their outward verbs reach another machine. */
const LOCAL_FIRST: Readonly<Record<string, RegExp>> = {
  git: /^git\.(push|send-email)/,
  npm: /^npm\.(publish|unpublish|deprecate|undeprecate|star|unstar|dist-tag|owner|access|team|org|token-revoke)/,
  docker: /^docker\.(push|image-push|login|buildx-build)/,
  playwright: /^$/,
};

/** A verb of an authenticated CLI: every non-read verb of a service CLI, only the outward ones of a local one. */
export function verbOutside(cli: string, entry: Pick<VerbEntry, "action" | "class">): boolean {
  if (entry.class === "read") return false;
  const local = LOCAL_FIRST[cli];
  return local ? local.test(entry.action) : true;
}

/** A tool: anything that is not a read, on a hosted server or one handed a credential; a send anywhere. */
export function toolOutside(cls: ActionClass, remote: boolean): boolean {
  if (cls === "read") return false;
  return remote || cls === "communication";
}

/** Writes, deletes, sends and calls nobody can classify all count as able to change something. */
export function writeCapable(cls: ActionClass): boolean {
  return cls !== "read";
}
