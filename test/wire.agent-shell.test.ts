// Codex's commands behind the interceptors by its own shell policy: written with a backup, what bash reads puts the
// interceptors first and joins the session, a BASH_ENV of the person's is left alone, and uninstall gives the file back.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentEnvFile, agentShellState, codexShellOff, codexShellOn } from "../src/wire/agent-shell.ts";
import { parseDocument } from "../src/wire/edit/document.ts";
import { fakeHome, testContext } from "./support/index.ts";

const CONFIG = '# my codex\nmodel = "gpt-5.5-codex"\n\n[shell_environment_policy]\ninherit = "all"\n';

describe("Codex's shell_environment_policy", () => {
  test("setup names memnox's start-up file as BASH_ENV; bash reading it puts the interceptors first in the session", () => {
    using home = fakeHome();
    mkdirSync(home.join(".codex"), { recursive: true });
    const file = home.join(".codex", "config.toml");
    writeFileSync(file, CONFIG);
    const { ctx } = testContext(home, { env: { SHELL: "/bin/bash" } });
    expect(codexShellOn(ctx).status).toBe("added");
    expect(codexShellOn(ctx).status).toBe("unchanged");
    const text = readFileSync(file, "utf8");
    expect(text.startsWith(CONFIG)).toBe(true);
    const set = (parseDocument("toml", text) as { shell_environment_policy: { set: Record<string, string> } })
      .shell_environment_policy.set;
    expect(set).toEqual({ BASH_ENV: agentEnvFile(ctx, "codex"), MEMNOX_AGENT_NAME: "codex" });
    // As Codex runs a command: bash -c with BASH_ENV set, and CODEX_SESSION_ID for the thread.
    const ran = Bun.spawnSync(["bash", "-c", 'echo "$PATH|$MEMNOX_SESSION|$MEMNOX_AGENT_NAME"'], {
      env: { PATH: "/usr/bin:/bin", BASH_ENV: set.BASH_ENV ?? "", CODEX_SESSION_ID: "019a-thread" },
    });
    expect(ran.stdout.toString().trim()).toBe(`${ctx.paths.bin}:/usr/bin:/bin|019a-thread|codex`);
    expect(agentShellState(ctx, "codex")).toMatchObject({ meets: true });
    expect(agentShellState({ ...ctx, env: { ...ctx.env, SHELL: "/bin/zsh" } }, "codex")).toMatchObject({
      meets: false,
      words: expect.stringContaining("zsh, which does not read BASH_ENV"),
    });

    codexShellOff(ctx);
    expect(readFileSync(file, "utf8")).toBe(CONFIG);
    expect(agentShellState(ctx, "codex")).toMatchObject({ meets: false, fix: "memnox setup" });
  });

  test("a BASH_ENV the person set is left alone, and said", () => {
    using home = fakeHome();
    mkdirSync(home.join(".codex"), { recursive: true });
    const file = home.join(".codex", "config.toml");
    const mine = `${CONFIG}[shell_environment_policy.set]\nBASH_ENV = "${join(home.home, "my-env.sh")}"\n`;
    writeFileSync(file, mine);
    const { ctx } = testContext(home);
    const r = codexShellOn(ctx);
    expect(r.status).toBe("left-alone");
    expect(r.words).toContain("memnox left it");
    expect(readFileSync(file, "utf8")).toBe(mine);
  });
});
