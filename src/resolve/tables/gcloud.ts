// gcloud: command groups nest to any depth, so the last verb word carries the class.
import type { ActionClass } from "../../core/action.ts";
import type { VerbTable } from "../types.ts";
import { help, v } from "./entry.ts";

const verbs = (cls: ActionClass, words: string) => words.split(" ").map((w) => v(`** ${w}`, "gcloud.{path}", cls));

export const gcloud = (): VerbTable => ({
  cli: "gcloud",
  description: "Google Cloud CLI: any group, classed by its final verb",
  valueFlags: [
    "--project",
    "--account",
    "--configuration",
    "--format",
    "--filter",
    "--limit",
    "--sort-by",
    "--page-size",
    "--zone",
    "--region",
    "--verbosity",
    "--impersonate-service-account",
    "--billing-project",
    "--flags-file",
  ],
  verbs: [
    help("gcloud"),
    ...verbs("read", "list describe get get-* list-* read tail print-* show-* search export info version"),
    ...verbs("read", "get-iam-policy get-value explain lint validate"),
    ...verbs("write", "create create-* update update-* set set-* add add-* import enable disable start stop"),
    ...verbs("write", "resize attach-* detach-* patch restore clone cp mv rsync login activate init undelete"),
    ...verbs("write", "revoke install reinstall configure-docker cancel"),
    ...verbs("communication", "deploy publish call submit rollback invoke scp promote"),
    ...verbs("unknown", "ssh connect execute"),
    ...verbs("destructive", "delete delete-* remove remove-* rm purge destroy reset"),
  ],
});
