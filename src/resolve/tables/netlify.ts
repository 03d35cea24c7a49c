// netlify: deploys ship a site, --prod ships it to production; deletes remove sites and data.
import type { VerbTable } from "../types.ts";
import { help, many, v } from "./entry.ts";

export const netlify = (): VerbTable => ({
  cli: "netlify",
  description: "Netlify: deploys, sites, environment variables, functions",
  aliases: ["ntl"],
  valueFlags: ["--site", "--auth", "--dir", "-d", "--functions", "-f", "-m", "--message", "--alias", "--context"],
  verbs: [
    help("netlify"),
    v("deploy", "netlify.deploy", "communication"),
    v("deploy", "netlify.deploy-prod", "communication", ["--prod", "-p", "--prod-if-unlocked"]),
    ...many("", "netlify", "read", "status open open:admin open:site sites:list env:list env:get logs"),
    ...many("", "netlify", "read", "logs:function logs:deploy functions:list watch completion blobs:get"),
    ...many("", "netlify", "read", "blobs:list status:hooks"),
    ...many("", "netlify", "write", "build link unlink init login logout switch sites:create env:set"),
    ...many("", "netlify", "write", "env:import functions:create functions:build blobs:set recipes"),
    ...many("", "netlify", "communication", "functions:invoke"),
    ...many("", "netlify", "unknown", "dev serve functions:serve api"),
    ...many("", "netlify", "destructive", "sites:delete env:unset blobs:delete"),
  ],
});
