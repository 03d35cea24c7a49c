// Before any test module loads: no test may reach the real home directory by accident.

import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const nowhere = join(tmpdir(), `memnox-no-home-${process.pid}`, "does-not-exist");
process.env.HOME = nowhere;
process.env.MEMNOX_HOME = join(nowhere, ".memnox");
process.env.TZ = "Etc/UTC";
process.env.NO_COLOR = "1";
process.env.LANG = "C.UTF-8";
for (const k of Object.keys(process.env)) {
  if (k.startsWith("MEMNOX_") && k !== "MEMNOX_HOME") delete process.env[k];
}
delete process.env.XDG_CONFIG_HOME;
delete process.env.XDG_DATA_HOME;
delete process.env.CLAUDE_CONFIG_DIR;
delete process.env.CODEX_HOME;

// A test must never reach the developer's real user-service manager: stand-ins answer first on every PATH built
// from this process's own (tests that need a recording stand-in put their own ahead of these).
const guard = join(tmpdir(), `memnox-guard-${process.pid}`);
mkdirSync(guard, { recursive: true });
for (const tool of ["systemctl", "launchctl", "notify-send", "osascript"]) {
  writeFileSync(
    join(guard, tool),
    "#!/bin/sh\necho 'Failed to connect to bus: No medium found (memnox test guard)' >&2\nexit 1\n",
    {
      mode: 0o755,
    },
  );
}
process.env.PATH = `${guard}:${process.env.PATH ?? "/usr/bin:/bin"}`;

// Claude Code's managed settings live in /etc: no test may write the machine's own. A test that means to hands its
// children a folder of its own; every other gets one that cannot be made, so memnox takes the unprivileged way.
process.env.MEMNOX_CLAUDE_MANAGED_DIR = "/proc/memnox-test-no-managed-settings";
