// playwright: tests run the project's own code; browsers and reports are local; codegen and servers are interactive.
import type { VerbTable } from "../types.ts";
import { help, many } from "./entry.ts";

export const playwright = (): VerbTable => ({
  cli: "playwright",
  description: "Playwright: test runner, browsers, codegen, reports",
  valueFlags: ["-c", "--config", "--project", "-g", "--grep", "-j", "--workers", "--reporter", "-b", "--browser"],
  verbs: [
    help("playwright"),
    ...many("", "playwright", "write", "test"),
    ...many("", "playwright", "unknown", "codegen run-server launch-server run-test-mcp-server"),
    ...many("", "playwright", "read", "show-report show-trace open cr ff wk"),
    ...many("", "playwright", "write", "install install-deps uninstall screenshot pdf merge-reports clear-cache"),
    ...many("", "playwright", "write", "init-agents"),
  ],
});
