// Which agent session a proxied MCP call came from, read off the row the agent's own hook wrote for it.
import { expect, test } from "bun:test";
import { hookedCallSession } from "../../src/ledger/read/hooked.ts";
import { at, decision, ledgerHome } from "./helpers.ts";

const ACTION = "mcp.github.merge_pull_request";
const hooked = (session: string, digest: string, offsetMs: number) =>
  decision({ surface: "hook", operation: ACTION, session, argsDigest: digest, occurredAt: at(offsetMs) });

test("the hook row with the call's own digest wins over a newer one; proxy rows and old rows never count", () => {
  using home = ledgerHome();
  const l = home.ledger;
  l.append(hooked("ses_old", "d".repeat(64), -20 * 60_000));
  l.append(hooked("ses_mine", "d".repeat(64), 0));
  l.append(hooked("ses_other", "e".repeat(64), 1000));
  l.append(decision({ surface: "mcp", operation: ACTION, session: "ses_proxy", occurredAt: at(2000) }));
  expect(hookedCallSession(l, ACTION, at(-60_000), "d".repeat(64))).toEqual({
    session: "ses_mine",
    agent: "claude-code",
  });
  expect(hookedCallSession(l, ACTION, at(-60_000), "f".repeat(64))?.session).toBe("ses_other");
  expect(hookedCallSession(l, ACTION, at(5000), "d".repeat(64))).toBeUndefined();
  expect(hookedCallSession(l, "mcp.github.other", at(-60_000), "d".repeat(64))).toBeUndefined();
});
