// git push's options, shared by the resolver's reading of a push and of what git's settings make of one.
import type { OptSpec } from "../argv.ts";

export const PUSH: OptSpec = {
  flags: "fnuqvd46",
  values: "o",
  long: [
    "force",
    "force-if-includes",
    "mirror",
    "all",
    "branches",
    "tags",
    "follow-tags",
    "delete",
    "prune",
    "dry-run",
    "porcelain",
    "atomic",
    "set-upstream",
    "no-verify",
    "verify",
    "thin",
    "progress",
    "quiet",
    "verbose",
  ],
  longValues: ["repo", "receive-pack", "exec", "push-option"],
  longOptional: ["force-with-lease", "signed", "recurse-submodules"],
};
