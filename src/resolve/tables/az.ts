// az: resource groups nest, so the final verb carries the class; deployments are communication.
import type { ActionClass } from "../../core/action.ts";
import type { VerbTable } from "../types.ts";
import { help, v } from "./entry.ts";

const verbs = (cls: ActionClass, words: string) => words.split(" ").map((w) => v(`** ${w}`, "az.{path}", cls));

export const az = (): VerbTable => ({
  cli: "az",
  description: "Azure CLI: any group, classed by its final verb",
  valueFlags: ["--subscription", "-o", "--output", "--query", "-g", "--resource-group", "-n", "--name", "-l"],
  verbs: [
    help("az"),
    v("version", "az.version", "read"),
    ...verbs("read", "list show list-* show-* get-* get wait query check-* download"),
    ...verbs("write", "create update set add start stop restart import assign login logout upload"),
    ...verbs("write", "add-* set-* update-* enable disable install scale"),
    ...verbs("communication", "deploy swap publish"),
    ...verbs("unknown", "invoke run-command ssh exec"),
    ...verbs("destructive", "delete purge remove remove-* reset"),
    v("deployment ** create", "az.{path}", "communication"),
    v("vm run-command **", "az.{path}", "unknown"),
  ],
});
