import { expect, test } from "bun:test";
import { carriesHook } from "./hooked.ts";

test("memnox's hook is found by its command under `hooks`, from the stable copy or from source", () => {
  const entry = (command: string) => ({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command }] }] } });
  expect(carriesHook(entry("/home/u/.memnox/app/memnox hook claude-code PreToolUse"), "claude-code")).toBe(true);
  expect(carriesHook(entry("'/opt/bun' '/src/bin/memnox.ts' hook codex PreToolUse"), "codex")).toBe(true);
  expect(carriesHook(entry("/home/u/.memnox/app/memnox hook claude-code PreToolUse"), "codex")).toBe(false);
  expect(carriesHook(entry("other-tool hook claude-code"), "claude-code")).toBe(false);
  expect(carriesHook({ env: { X: "memnox hook cursor" } }, "cursor")).toBe(false);
});
