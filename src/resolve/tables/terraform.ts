// terraform: plans read, applies change shared infrastructure, destroys and state surgery are destructive.
import type { VerbTable } from "../types.ts";
import { help, many, v } from "./entry.ts";

export const terraform = (): VerbTable => ({
  cli: "terraform",
  description: "Terraform (and OpenTofu): plan, apply, destroy, state",
  aliases: ["tofu"],
  valueFlags: ["-var", "-var-file", "-target", "-state", "-out", "-replace", "-backend-config", "-lock-timeout"],
  verbs: [
    help("terraform"),
    ...many("", "terraform", "read", "validate plan show output providers version graph console metadata modules"),
    ...many("", "terraform", "write", "init fmt get refresh login logout import taint untaint force-unlock"),
    ...many("", "terraform", "communication", "apply test"),
    v("apply", "terraform.apply-destroy", "destructive", ["-destroy", "--destroy"]),
    v("plan", "terraform.plan", "read"),
    v("destroy", "terraform.destroy", "destructive"),
    ...many("state", "terraform", "read", "list show pull"),
    ...many("state", "terraform", "write", "mv replace-provider"),
    ...many("state", "terraform", "destructive", "rm push"),
    ...many("workspace", "terraform", "read", "list show"),
    ...many("workspace", "terraform", "write", "select new"),
    v("workspace delete", "terraform.workspace-delete", "destructive"),
  ],
});
