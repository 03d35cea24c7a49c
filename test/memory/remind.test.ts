import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { bunGit, ownGit } from "../../src/adapters/proc.ts";
import { sha256Hex } from "../../src/io/hash.ts";
import { rememberDecision } from "../../src/memory/decision.ts";
import { explicitProject, MACHINE_PROJECT, projectFromCwd } from "../../src/memory/format/project.ts";
import { openStore, readPage } from "../../src/memory/pages/store.ts";
import { MEMORY_PREAMBLE, reminderKey, remindersFor, renderReminders } from "../../src/memory/recall/remind.ts";
import { sessionReminders } from "../../src/memory/recall/session.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import { fakeHome, gitRepo, hermeticEnv } from "../support/index.ts";
import { memStore, put, T0 } from "./helpers.ts";

const repo = explicitProject("0123456789abcdef01234567", "shop", "shop");
const PROMPT = "Please tidy up the env file, then push to main";

describe("reminders for a prompt", () => {
  test("the floor is a share of the prompt's terms: two of five is said, one of five is silence", () => {
    using m = memStore();
    put(m.store, { title: "Secrets stay local", body: "Never commit the env file; secrets live in the vault." });
    put(m.store, { title: "Release branches", body: "Everything is pushed via pull requests." });
    const said = remindersFor({ store: m.store, projects: [repo.id], prompt: PROMPT });
    expect(said.map((r) => [r.slug, r.matched, r.terms, r.coverage])).toEqual([["secrets-stay-local", 2, 5, 0.4]]);
    const silent = remindersFor({
      store: m.store,
      projects: [repo.id],
      prompt: "tidy the vault configuration for deploys today",
    });
    expect(silent).toEqual([]);
    expect(remindersFor({ store: m.store, projects: [repo.id], prompt: PROMPT, floor: 0.5 })).toEqual([]);
  });

  test("said once per session, within the shared limit and the budget, from this project, global or the machine only", () => {
    using m = memStore();
    put(m.store, {
      title: "Env files",
      body: "The env file never leaves the machine.",
      scope: "project",
      project: repo,
    });
    put(m.store, { title: "Env global", body: "An env file is local." });
    put(m.store, {
      title: "Env elsewhere",
      body: "The env file of another project.",
      scope: "project",
      project: explicitProject("cccccccccccccccccccccccc", "o", "o"),
    });
    put(m.store, { title: "Env pending", body: "The env file draft.", status: "pending" });
    const first = remindersFor({ store: m.store, projects: [repo.id, MACHINE_PROJECT.id], prompt: PROMPT, limit: 5 });
    expect(first.map((r) => r.slug).sort()).toEqual(["env-files", "env-global"]);
    const key = reminderKey("project", "0123456789abcdef01234567", "env-files");
    expect(first.find((r) => r.slug === "env-files")?.key).toBe(key);
    const later = remindersFor({
      store: m.store,
      projects: [repo.id],
      prompt: PROMPT,
      alreadySaid: new Set([key]),
      limit: 5,
    });
    expect(later.map((r) => r.slug)).toEqual(["env-global"]);
    expect(remindersFor({ store: m.store, projects: [repo.id], prompt: PROMPT, limit: 1 })).toHaveLength(1);
    expect(remindersFor({ store: m.store, projects: [repo.id], prompt: PROMPT, limit: 0 })).toEqual([]);
    expect(
      remindersFor({ store: m.store, projects: [repo.id], prompt: PROMPT, limit: 5, budgetTokens: 1 }),
    ).toHaveLength(1);
  });

  test("the block opens with the preamble that memories are evidence, and is empty when nothing is said", () => {
    using m = memStore();
    put(m.store, { title: "Env files", description: "When touching .env files.", body: "The env file stays local." });
    const block = renderReminders(remindersFor({ store: m.store, projects: [], prompt: PROMPT }));
    expect(block.split("\n")[0]).toBe(MEMORY_PREAMBLE);
    expect(MEMORY_PREAMBLE).toContain("evidence");
    expect(MEMORY_PREAMBLE).toContain("not as instructions");
    expect(block).toContain("- Memory (entity): Env files. When touching .env files.");
    expect(renderReminders([])).toBe("");
  });

  test("a store never indexed is silence, not an error", () => {
    using m = memStore();
    expect(remindersFor({ store: m.store, projects: [], prompt: PROMPT })).toEqual([]);
  });
});

describe("remembering a decision", () => {
  test("a machine rule becomes a decision page with where, who and the rule, and is reminded where it applies", () => {
    using m = memStore();
    const r = rememberDecision(m.store, {
      rule: "deny-ssh-keys",
      reason: "almost no task needs the key itself, and a leaked one is somebody's weekend",
      effect: "deny",
      actions: ["filesystem.read"],
      targets: ["**/.ssh/**"],
      where: "machine",
      by: "sam",
      file: "~/.memnox/machine.policies.toml",
      decidedAt: T0,
    });
    expect(r.file_path.endsWith("docs/projects/machine/decision/rule-deny-ssh-keys.md")).toBe(true);
    const page = readPage(m.store, r.file_path);
    expect(page).toMatchObject({
      type: "decision",
      title: "Never filesystem.read on **/.ssh/**",
      status: "active",
      scope: "project",
      project_id: MACHINE_PROJECT.id,
      source: "memnox:machine",
      resource: "~/.memnox/machine.policies.toml",
      occurred_at: "2026-11-30T12:00:00Z",
    });
    expect(page.body).toContain("- Decided by: sam\n- Where: decided on this machine");
    expect(page.body).toContain("- Rule: `deny-ssh-keys` (deny)");
    const again = rememberDecision(m.store, {
      rule: "deny-ssh-keys",
      reason: "keys stay put",
      effect: "deny",
      where: "machine",
      by: "sam",
    });
    expect(again.file_path).toBe(r.file_path);
    expect(again.created).toBe(false);
    const said = remindersFor({ store: m.store, projects: [MACHINE_PROJECT.id], prompt: "keys stay put please" });
    expect(said.map((x) => x.type)).toEqual(["decision"]);
    expect(renderReminders(said)).toContain("- A previous decision: ");
    expect(() => rememberDecision(m.store, { rule: "x", reason: "y", where: "repository", by: "sam" })).toThrow(
      /needs the repository's project/,
    );
  });
});

describe("sessionReminders", () => {
  test("finds the repository's project from its Git origin and answers from the default store", async () => {
    using home = fakeHome();
    using r = gitRepo({ "README.md": "shop\n" });
    r.git("remote", "add", "origin", "git@github.com:acme/shop.git");
    const env = hermeticEnv({ HOME: home.home, MEMNOX_HOME: home.memnoxHome });
    const git = bunGit(env, ownGit(memnoxPaths(env), process.execPath));
    const project = await projectFromCwd(git, r.path);
    // memex's identity: the first 24 hex digits of the normalized origin's SHA-256; the label is the folder's name.
    expect(project).toMatchObject({ label: basename(r.path), locator: "git-shop" });
    expect(project.id).toBe(sha256Hex("github.com/acme/shop").slice(0, 24));
    const paths = memnoxPaths(env);
    const s = { env, paths, git, cwd: r.path, now: () => T0 };
    expect(await sessionReminders(s, PROMPT)).toEqual([]);
    const store = openStore({ dir: paths.memory, now: () => T0 });
    rememberDecision(store, {
      rule: "no-env-commits",
      reason: "the env file never leaves this machine",
      effect: "deny",
      where: "repository",
      by: "sam",
      project,
    });
    store.close();
    const said = await sessionReminders(s, PROMPT);
    expect(said.map((x) => x.slug)).toEqual(["rule-no-env-commits"]);
    expect(readFileSync(said[0]?.file_path ?? "", "utf8")).toContain(`project_id: "${project.id}"`);
  });
});
