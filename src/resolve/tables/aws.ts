// aws: `aws <service> <operation>`; the operation's verb says what it does, so prefixes carry the class.
import type { VerbTable } from "../types.ts";
import { help, v } from "./entry.ts";

const op = (prefix: string, cls: Parameters<typeof v>[2]) => v(`* ${prefix}`, "aws.{1}-{2}", cls);

export const aws = (): VerbTable => ({
  cli: "aws",
  description: "AWS CLI: every service, classed by the operation's verb",
  valueFlags: ["--region", "--profile", "--output", "--query", "--endpoint-url", "--color", "--ca-bundle"],
  verbs: [
    help("aws"),
    ...["describe-*", "list-*", "get-*", "head-*", "search-*", "lookup-*", "validate-*", "simulate-*"].map((p) =>
      op(p, "read"),
    ),
    ...["estimate-*", "preview-*", "batch-get-*", "query", "scan", "wait", "filter-*", "tail", "download-*"].map((p) =>
      op(p, "read"),
    ),
    ...["test-*", "check-*", "detect-*", "decrypt", "encrypt", "generate-*", "verify", "sign", "select-*"].map((p) =>
      op(p, "read"),
    ),
    ...["create-*", "put-*", "update-*", "modify-*", "tag-*", "untag-*", "attach-*", "detach-*"].map((p) =>
      op(p, "write"),
    ),
    ...["associate-*", "disassociate-*", "enable-*", "disable-*", "register-*", "import-*", "copy-*"].map((p) =>
      op(p, "write"),
    ),
    ...["restore-*", "set-*", "add-*", "upload-*", "start-*", "stop-*", "reboot-*", "run-*", "cancel-*"].map((p) =>
      op(p, "write"),
    ),
    ...["authorize-*", "revoke-*", "replace-*", "accept-*", "reject-*", "rotate-*", "batch-write-*"].map((p) =>
      op(p, "write"),
    ),
    ...["publish", "publish-*", "send-*", "invoke", "invoke-*", "deploy", "execute-*", "share-*"].map((p) =>
      op(p, "communication"),
    ),
    ...["delete-*", "remove-*", "terminate-*", "deregister-*", "purge-*", "destroy-*", "reset-*"].map((p) =>
      op(p, "destructive"),
    ),
    op("batch-delete-*", "destructive"),
    v("ssm start-session", "aws.ssm-start-session", "unknown"),
    v("ecs execute-command", "aws.ecs-execute-command", "unknown"),
    v("configure", "aws.configure", "write"),
    v("configure *", "aws.configure-{2}", "write"),
    ...["get", "list", "list-profiles", "export-credentials"].map((s) =>
      v(`configure ${s}`, "aws.configure-{2}", "read"),
    ),
    v("sso login", "aws.sso-login", "write"),
    v("sso logout", "aws.sso-logout", "write"),
    v("s3 ls", "aws.s3-ls", "read"),
    v("s3 presign", "aws.s3-presign", "read"),
    v("s3 cp", "aws.s3-cp", "write"),
    v("s3 mv", "aws.s3-mv", "write"),
    v("s3 mb", "aws.s3-mb", "write"),
    v("s3 sync", "aws.s3-sync", "write"),
    v("s3 sync", "aws.s3-sync-delete", "destructive", ["--delete"]),
    v("s3 website", "aws.s3-website", "communication"),
    v("s3 rm", "aws.s3-rm", "destructive"),
    v("s3 rb", "aws.s3-rb", "destructive"),
  ],
});
