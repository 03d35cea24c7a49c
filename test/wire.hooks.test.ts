// Agent hooks into each agent's own settings: merged, kept, idempotent, repointed, and taken back out byte for byte.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { AGENTS, type AgentName } from "../hooks/types.ts";
import { parseDocument } from "../src/wire/edit/document.ts";
import { codexTrust } from "../src/wire/hooks/codex-trust.ts";
import { agentHookState, installAgentHook, removeAgentHook } from "../src/wire/hooks/install.ts";
import { hookTarget } from "../src/wire/hooks/targets.ts";
import { type FakeHome, fakeHome, fixtureTree, lineDiff, testContext } from "./support/index.ts";

const HOOK_FILES: Record<AgentName, string> = {
  "claude-code": ".claude/settings.json",
  codex: ".codex/hooks.json",
  "gemini-cli": ".gemini/settings.json",
  cursor: ".cursor/hooks.json",
  windsurf: ".codeium/windsurf/hooks.json",
  "copilot-cli": ".copilot/hooks/memnox.json",
  opencode: ".config/opencode/plugins/memnox.js",
};

/** A fake home for `agent` with the stable binary in place, so entries name it. */
function agentHome(agent: AgentName): FakeHome {
  const home = fakeHome(fixtureTree("homes", agent));
  const app = join(home.memnoxHome, "app", "memnox");
  mkdirSync(dirname(app), { recursive: true });
  writeFileSync(app, "#!/bin/sh\n", { mode: 0o755 });
  return home;
}

function read(home: FakeHome, agent: AgentName): string | undefined {
  try {
    return readFileSync(home.join(HOOK_FILES[agent]), "utf8");
  } catch {
    return undefined;
  }
}

/** Every command in the file's `hooks`, by event; for OpenCode's plugin, the command it runs for each event. */
function commands(agent: AgentName, text: string): Record<string, string[]> {
  if (agent === "opencode") {
    const words = JSON.parse(/^const HOOK = (\[.*\]);$/m.exec(text)?.[1] ?? "[]") as string[];
    return { "tool.execute.before": [`${words.join(" ")} tool.execute.before`] };
  }
  const doc = parseDocument("json", text) as {
    hooks: Record<string, { command?: string; bash?: string; hooks?: { command: string }[] }[]>;
  };
  return Object.fromEntries(
    Object.entries(doc.hooks).map(([event, list]) => [
      event,
      list.flatMap((item) => (item.hooks ? item.hooks.map((h) => h.command) : [item.command ?? item.bash ?? ""])),
    ]),
  );
}

describe("agent hooks", () => {
  for (const agent of AGENTS) {
    test(`${agent}: added beside the person's hooks, idempotent, and restored byte for byte`, () => {
      using home = agentHome(agent);
      const { ctx } = testContext(home);
      const before = read(home, agent);
      const first = installAgentHook(ctx, agent);
      expect(first.status).toBe("added");
      expect(first.file).toBe(home.join(HOOK_FILES[agent]));
      const after = read(home, agent) ?? "";
      const app = join(home.memnoxHome, "app", "memnox");
      const target = hookTarget(agent);
      const events = target.plugin ? [target.preShell] : Object.keys(target.entries("x"));
      const cmds = commands(agent, after);
      for (const e of events) expect(cmds[e]).toContain(`${app} hook ${agent} ${e}`);
      if (before !== undefined) {
        // Nothing the person wrote is lost: every old line survives, give or take the comma a new item needs.
        const diff = lineDiff(before, after);
        for (const line of diff.removed) expect(diff.added).toContain(line.replace(/(\S)(\s*(\/\/.*)?)$/, "$1,$2"));
      }
      expect(installAgentHook(ctx, agent).status).toBe("unchanged");
      expect(read(home, agent)).toBe(after);
      expect(agentHookState(ctx, agent)).toMatchObject({ presence: "hooked", launcher: [app], launcherExists: true });

      const back = removeAgentHook(ctx, agent);
      expect(back.status).toBe("restored");
      expect(read(home, agent)).toBe(before);
      expect(agentHookState(ctx, agent).presence).toBe("absent");
    });
  }

  test("kept comments and the person's own hook; a change made since keeps its place when memnox leaves", () => {
    using home = agentHome("gemini-cli");
    const { ctx } = testContext(home);
    installAgentHook(ctx, "gemini-cli");
    const text = read(home, "gemini-cli") ?? "";
    expect(text).toContain("// Gemini CLI reads comments here");
    expect(text).toContain("/* the person's own formatter */");
    expect(text).toContain('"SQLITE_KEY": "canary-gemini-sqlite-301" // rotated monthly');
    const edited = text.replace('"theme": "GitHub"', '"theme": "Dracula"');
    writeFileSync(home.join(HOOK_FILES["gemini-cli"]), edited);
    const back = removeAgentHook(ctx, "gemini-cli");
    expect(back.status).toBe("removed");
    const left = read(home, "gemini-cli") ?? "";
    expect(left).not.toContain("hook gemini-cli");
    expect(parseDocument("json", left)).toEqual(
      parseDocument(
        "json",
        readFileSync(join(import.meta.dir, "../fixtures/homes/gemini-cli/.gemini/settings.json"), "utf8").replace(
          "GitHub",
          "Dracula",
        ),
      ),
    );
  });

  test("an entry pointing at an old binary is repointed, never doubled", () => {
    using home = agentHome("claude-code");
    const { ctx } = testContext(home);
    const file = home.join(HOOK_FILES["claude-code"]);
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: "x", hooks: [{ type: "command", command: "/tmp/_npx/1/memnox hook claude-code PreToolUse" }] },
          ],
        },
      }),
    );
    const r = installAgentHook(ctx, "claude-code");
    expect(r.status).toBe("repointed");
    const cmds = commands("claude-code", read(home, "claude-code") ?? "");
    expect(cmds.PreToolUse).toEqual([`${join(home.memnoxHome, "app", "memnox")} hook claude-code PreToolUse`]);
  });

  test("a settings file whose hooks are not an object is refused, named, and left as it was", () => {
    using home = agentHome("claude-code");
    const { ctx } = testContext(home);
    const file = home.join(HOOK_FILES["claude-code"]);
    writeFileSync(file, '{"hooks": ["odd"]}\n');
    const r = installAgentHook(ctx, "claude-code");
    expect(r.status).toBe("refused");
    expect(r.problem?.message).toContain(file);
    expect(readFileSync(file, "utf8")).toBe('{"hooks": ["odd"]}\n');
    writeFileSync(file, '{"hooks": {,}}\n');
    expect(installAgentHook(ctx, "claude-code")).toMatchObject({ status: "unparsable", problem: { line: 1 } });
  });
});

describe("whether the agent runs it", () => {
  test("Claude Code: per folder, after its trust dialog; `disableAllHooks` turns it off", () => {
    using home = agentHome("claude-code");
    const project = home.join("proj");
    mkdirSync(project);
    const { ctx } = testContext(home, { cwd: project });
    const r = installAgentHook(ctx, "claude-code");
    expect(r.trust).toMatchObject({ active: false });
    expect(r.trust?.words).toContain(`not active in ${project} until you accept Claude Code's trust dialog`);
    writeFileSync(
      home.join(".claude.json"),
      JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }),
    );
    expect(agentHookState(ctx, "claude-code").trust?.active).toBe(true);
    const settings = home.join(HOOK_FILES["claude-code"]);
    writeFileSync(settings, readFileSync(settings, "utf8").replace('"model"', '"disableAllHooks": true, "model"'));
    expect(agentHookState(ctx, "claude-code").trust).toMatchObject({ active: false, step: "remove `disableAllHooks`" });
  });

  test("Codex: skipped until a person trusts each entry in /hooks, and again once an entry changes", () => {
    using home = agentHome("codex");
    const { ctx } = testContext(home);
    const r = installAgentHook(ctx, "codex");
    expect(r.trust).toMatchObject({ active: false, step: "run `codex`, type /hooks and trust memnox's hooks" });
    const file = home.join(HOOK_FILES.codex);
    const config = home.join(".codex/config.toml");
    const before = readFileSync(config, "utf8");
    const trustAs = (hash: (h: { currentHash: string }) => string) => {
      const doc = parseDocument("json", readFileSync(file, "utf8"));
      const state = codexTrust(file, doc, {}, () => true).map(
        (h) => `[hooks.state."${h.key}"]\ntrusted_hash = "${hash(h)}"\n`,
      );
      writeFileSync(config, `${before}\n${state.join("\n")}`);
    };
    // A record that does not carry the entry's own hash is not trust: Codex reports the entry modified.
    trustAs(() => "sha256:00");
    expect(agentHookState(ctx, "codex").trust).toMatchObject({ active: false });
    expect(agentHookState(ctx, "codex").trust?.words).toContain("modified, not active");
    trustAs((h) => h.currentHash);
    expect(agentHookState(ctx, "codex").trust?.active).toBe(true);
    // One field of one trusted entry changed (a timeout 30 -> 31): Codex skips it, and so the report says.
    writeFileSync(file, readFileSync(file, "utf8").replace('"timeout": 30', '"timeout": 31'));
    const changed = agentHookState(ctx, "codex").trust;
    expect(changed?.active).toBe(false);
    expect(changed?.words).toContain("modified, not active: memnox's PreToolUse entry differs");
    expect(changed?.step).toContain("memnox setup");
  });

  test("Gemini CLI: active unless hooks are switched off or memnox is disabled by name", () => {
    using home = agentHome("gemini-cli");
    const { ctx } = testContext(home);
    expect(installAgentHook(ctx, "gemini-cli").trust?.active).toBe(true);
    const file = home.join(HOOK_FILES["gemini-cli"]);
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace('"ui"', '"hooksConfig": { "disabled": ["memnox"] },\n  "ui"'),
    );
    expect(agentHookState(ctx, "gemini-cli").trust).toMatchObject({
      active: false,
      step: "run `/hooks enable memnox` in Gemini CLI",
    });
  });
});

describe("agents whose hook is a file of its own", () => {
  test("Copilot CLI: memnox's own file in its hooks directory, beside the person's, gone at uninstall", () => {
    using home = agentHome("copilot-cli");
    const { ctx } = testContext(home);
    const theirs = readFileSync(home.join(".copilot/hooks/audit.json"), "utf8");
    expect(installAgentHook(ctx, "copilot-cli").status).toBe("added");
    const doc = parseDocument("json", read(home, "copilot-cli") ?? "") as { version: number; hooks: object };
    expect(doc.version).toBe(1);
    expect(Object.keys(doc.hooks)).toEqual([
      "sessionStart",
      "userPromptSubmitted",
      "preToolUse",
      "postToolUse",
      "postToolUseFailure",
      "sessionEnd",
    ]);
    expect(readFileSync(home.join(".copilot/hooks/audit.json"), "utf8")).toBe(theirs);
    expect(removeAgentHook(ctx, "copilot-cli").status).toBe("restored");
    expect(read(home, "copilot-cli")).toBeUndefined();
    expect(readFileSync(home.join(".copilot/hooks/audit.json"), "utf8")).toBe(theirs);
  });

  test("Copilot CLI: COPILOT_HOME moves the file", () => {
    using home = agentHome("copilot-cli");
    const { ctx } = testContext(home, { env: { COPILOT_HOME: home.join("elsewhere") } });
    expect(installAgentHook(ctx, "copilot-cli").file).toBe(home.join("elsewhere/hooks/memnox.json"));
  });

  test("OpenCode: a plugin of memnox's own, repointed in place, removed even after an edit; a stranger's file is left alone", () => {
    using home = agentHome("opencode");
    const { ctx } = testContext(home);
    const file = home.join(HOOK_FILES.opencode);
    const theirs = readFileSync(home.join(".config/opencode/plugins/notify.js"), "utf8");
    installAgentHook(ctx, "opencode");
    const text = read(home, "opencode") ?? "";
    writeFileSync(file, text.replace(/^const HOOK = .*$/m, 'const HOOK = ["/tmp/_npx/1/memnox","hook","opencode"];'));
    expect(agentHookState(ctx, "opencode")).toMatchObject({ presence: "hooked", launcherExists: false });
    expect(installAgentHook(ctx, "opencode").status).toBe("repointed");
    expect(read(home, "opencode")).toBe(text);
    writeFileSync(file, `${text}\n// a person's note\n`);
    expect(removeAgentHook(ctx, "opencode").status).toBe("removed");
    expect(read(home, "opencode")).toBeUndefined();
    expect(readFileSync(home.join(".config/opencode/plugins/notify.js"), "utf8")).toBe(theirs);

    writeFileSync(file, "export const Mine = async () => ({});\n");
    const r = installAgentHook(ctx, "opencode");
    expect(r.status).toBe("refused");
    expect(readFileSync(file, "utf8")).toBe("export const Mine = async () => ({});\n");
    expect(removeAgentHook(ctx, "opencode").status).not.toBe("removed");
    expect(readFileSync(file, "utf8")).toBe("export const Mine = async () => ({});\n");
  });
});
