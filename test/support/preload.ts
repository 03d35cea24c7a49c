// Before any test module loads: no test may reach the real home directory by accident.
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
