// railway: `up` and deploys ship code, `down` and deletes remove what is running.
import type { VerbTable } from "../types.ts";
import { help, many, v } from "./entry.ts";

export const railway = (): VerbTable => ({
  cli: "railway",
  description: "Railway: deploys, services, variables, volumes",
  valueFlags: ["-s", "--service", "-e", "--environment", "-p", "--project"],
  verbs: [
    help("railway"),
    ...many("", "railway", "communication", "up deploy redeploy scale"),
    ...many("", "railway", "read", "status logs whoami list open docs version variables"),
    v("variables", "railway.variables-set", "write", ["--set"]),
    ...many("", "railway", "write", "link unlink init login logout service environment add domain"),
    ...many("", "railway", "unknown", "run shell connect ssh"),
    ...many("", "railway", "destructive", "down delete"),
    ...many("environment", "railway", "write", "new link"),
    ...many("environment", "railway", "destructive", "delete"),
    ...many("volume", "railway", "read", "list"),
    ...many("volume", "railway", "write", "add update attach detach"),
    ...many("volume", "railway", "destructive", "delete"),
  ],
});
