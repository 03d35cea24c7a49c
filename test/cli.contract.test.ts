// The CLI is a contract scripts can trust: every command, walked from the citty tree (a new command is covered the
// day it lands), refuses a bogus flag, a misspelt flag and a stray word with exit 2 naming the nearest valid flag,
// and under --json says so as a JSON object on stdout with a stable error.code.
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ArgsDef, CommandDef } from "citty";
import { bufferStdio } from "../src/adapters/stdio.ts";
import { isMemnoxError } from "../src/core/errors.ts";
import { createGate } from "../src/gate/index.ts";
import { contractStdio, value } from "../src/seams/cli/contract.ts";
import { run } from "../src/seams/cli/index.ts";
import { COMMANDS } from "../src/seams/cli/registry.ts";
import { fakeHome, gitRepo, runSource, testContext } from "./support/index.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

interface Leaf {
  readonly path: readonly string[];
  readonly args: ArgsDef;
  readonly rest: boolean;
  /** It has subcommands of its own besides running by itself. */
  readonly parent: boolean;
}

/** Every command a person can run, down to each subcommand, read off the tree the CLI itself runs. */
async function leaves(): Promise<Leaf[]> {
  const { ctx } = testContext(home);
  const out: Leaf[] = [];
  const walk = async (def: CommandDef, path: string[], rest: boolean) => {
    const subs = await value(def.subCommands);
    const names = Object.keys(subs ?? {});
    if (names.length === 0 || def.run) {
      out.push({ path, args: (await value(def.args)) ?? {}, rest, parent: names.length > 0 });
    }
    for (const n of names) {
      const sub = await value(subs?.[n]);
      if (sub) await walk(sub, [...path, n], false);
    }
  };
  for (const c of COMMANDS) await walk((await c.load())(ctx), [c.name], c.rest === true);
  return out;
}

const all = await leaves();

async function cli(args: readonly string[]) {
  const { ctx, io } = testContext(home, { args: [...args] });
  try {
    const code = await run(ctx);
    return { code, out: io.stdout(), err: io.stderr(), error: undefined };
  } catch (e) {
    return { code: isMemnoxError(e) ? e.exitCode : 70, out: io.stdout(), err: io.stderr(), error: e };
  }
}

function longFlags(args: ArgsDef): string[] {
  return Object.entries(args)
    .filter(([, a]) => a.type !== "positional")
    .map(([n]) => n.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase());
}

/** `fail-on` -> `fial-on`: two neighbours swapped, the typo scripts make. */
function misspelt(flag: string): string {
  const i = flag.length > 3 ? 1 : 0;
  return flag.slice(0, i) + (flag[i + 1] ?? "") + (flag[i] ?? "") + flag.slice(i + 2);
}

describe("every command refuses what it would otherwise ignore", () => {
  test("the walk finds every command and their subcommands", () => {
    expect(all.length).toBeGreaterThan(COMMANDS.length);
    expect(all.map((l) => l.path.join(" "))).toEqual(expect.arrayContaining(["scan", "verify", "memory recall"]));
  });

  for (const leaf of all) {
    const name = leaf.path.join(" ");
    test(`memnox ${name}: a bogus flag is exit 2, and under --json a JSON error on stdout`, async () => {
      const plain = await cli([...leaf.path, "--bogus-flag"]);
      expect(plain.code).toBe(2);
      expect(isMemnoxError(plain.error) && plain.error.code).toBe("unknown_flag");
      expect(String((plain.error as Error).message)).toContain("`--bogus-flag`");
      expect(plain.out).toBe("");

      const json = await cli([...leaf.path, "--bogus-flag", "--json"]);
      expect(json.code).toBe(2);
      expect(json.error).toBeUndefined();
      expect(JSON.parse(json.out)).toEqual({
        error: {
          code: "unknown_flag",
          message: expect.stringContaining("--bogus-flag"),
          hint: expect.any(String),
          exitCode: 2,
        },
      });
    });

    const flags = longFlags(leaf.args).filter((f) => f.length >= 4);
    const first = flags[0];
    if (first !== undefined && misspelt(first) !== first) {
      test(`memnox ${name}: a misspelt --${first} names it`, async () => {
        const r = await cli([...leaf.path, `--${misspelt(first)}`]);
        expect(r.code).toBe(2);
        expect(isMemnoxError(r.error) ? r.error.hint : "").toContain(`did you mean \`--${first}\``);
      });
    }

    const positionals = Object.values(leaf.args).filter((a) => a.type === "positional").length;
    test(`memnox ${name}: a word more than it takes is exit 2`, async () => {
      const words = Array.from({ length: positionals + 1 }, (_, i) => `stray-word-${i}`);
      const r = await cli([...leaf.path, ...words]);
      expect(r.code).toBe(2);
      // Where subcommands could stand, a stray word is read as one that does not exist.
      expect(isMemnoxError(r.error) && r.error.code).toBe(leaf.parent ? "unknown_command" : "unexpected_argument");
    });
  }

  test("an unknown subcommand names the nearest", async () => {
    const r = await cli(["agents", "lsit"]);
    expect(r.code).toBe(2);
    expect(isMemnoxError(r.error) && r.error.code).toBe("unknown_command");
    expect(isMemnoxError(r.error) ? r.error.hint : "").toContain("did you mean `list`");
  });

  test("a flag that needs a value and has none, and a value outside an enum, are exit 2", async () => {
    expect((await cli(["timeline", "--only"])).error).toMatchObject({ code: "missing_value" });
    expect((await cli(["scan", "--since", "--no-probe"])).error).toMatchObject({ code: "missing_value" });
    expect(JSON.parse((await cli(["scan", "--since", "--json"])).out).error.code).toBe("missing_value");
    expect((await cli(["run", "--task", "x", "--", "--not-memnox-s"])).code).not.toBe(2);
  });
});

describe("through the real process", () => {
  test("scan --fial-on write-capable exits 2 naming --fail-on, with nothing on stdout", async () => {
    const r = await runSource("memnox", ["scan", "--fial-on", "write-capable"], { env: home.env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("unknown flag `--fial-on`");
    expect(r.stderr).toContain("did you mean `--fail-on`?");
  });

  test("status --bogus --json: a JSON error object on stdout, exit 2", async () => {
    const r = await runSource("memnox", ["status", "--bogus", "--json"], { env: home.env() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe("unknown_flag");
  });

  test("under --json an error the command itself raises is JSON too, with its stable code", async () => {
    const r = await runSource("memnox", ["verify", "--json", "/no/such/export.jsonl"], { env: home.env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: "io", exitCode: 1 } });
  });

  test("timeline --export json | head stops quietly when the reader goes away", async () => {
    await someRows(400);
    const r = Bun.spawnSync(
      [
        "bash",
        "-c",
        `"${process.execPath}" "${join(import.meta.dir, "..", "bin", "memnox.ts")}" timeline --export jsonl | head -c 100 >/dev/null; echo "rc=\${PIPESTATUS[0]}"`,
      ],
      { env: { ...home.env(), MEMNOX_ARGV0: "memnox" } },
    );
    expect(r.stderr.toString()).toBe("");
    expect(r.stdout.toString().trim()).toBe("rc=0");
  });

  test("run of a program that is not there exits 127 at once, and one that cannot run 126", async () => {
    const started = Date.now();
    const missing = await runSource("memnox", ["run", "--no-milestone", "--", "/abs/missing"], { env: home.env() });
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain("/abs/missing");
    expect(missing.stderr).not.toContain("ENOENT");
    const named = await runSource("memnox", ["run", "--no-milestone", "--", "no-such-program-here"], {
      env: home.env(),
    });
    expect(named.code).toBe(127);
    const text = join(home.home, "notes.txt");
    writeFileSync(text, "not a program\n");
    expect((await runSource("memnox", ["run", "--no-milestone", "--", text], { env: home.env() })).code).toBe(126);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe("escape codes reach only a terminal", () => {
  const coloured = "\u001b[31mred\u001b[0m and \u001b]0;title\u0007plain\n";

  test("a pipe gets plain text; a terminal keeps them unless NO_COLOR is set", () => {
    const pipe = bufferStdio("", false);
    contractStdio(pipe, {}).out(coloured);
    contractStdio(pipe, {}).err(coloured);
    expect(pipe.stdout()).toBe("red and plain\n");
    expect(pipe.stderr()).toBe("red and plain\n");
    const tty = bufferStdio("", true);
    contractStdio(tty, {}).out(coloured);
    expect(tty.stdout()).toBe(coloured);
    const noColour = bufferStdio("", true);
    contractStdio(noColour, { NO_COLOR: "1" }).out(coloured);
    expect(noColour.stdout()).toBe("red and plain\n");
  });

  test("an error message carrying a code from its input reaches a pipe without it", async () => {
    const r = await runSource("memnox", ["trace", "\u001b[31mevt_x"], { env: home.env() });
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toContain("\u001b");
  });
});

describe("the bad inputs the issue names, each with its right answer", () => {
  test("verify <file> verifies that file, not the local ledger", async () => {
    await someRows(2);
    const file = join(home.home, "audit.jsonl");
    const exported = await cli(["timeline", "--export", "jsonl", "--out", file]);
    expect(exported.code).toBe(0);
    const r = await cli(["verify", file, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ file, format: "jsonl", ok: true });
    const viaFlag = await cli(["verify", "-f", file, "--json"]);
    expect(JSON.parse(r.out)).toEqual(JSON.parse(viaFlag.out));
  });

  test("freeze --for 2h with no subject freezes the machine, and --lift with none lifts it", async () => {
    const r = await cli(["freeze", "--for", "2h"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("froze this machine until");
    expect((await cli(["freeze", "--lift"])).code).toBe(0);
    const reasonOnly = await cli(["freeze", "--reason", "incident"]);
    expect(reasonOnly.code).toBe(2);
    expect(String((reasonOnly.error as Error).message)).toContain("a freeze needs --for");
  });

  test("resume of a session that is not held says it is not held", async () => {
    const r = await cli(["resume", "--by", "sam", "ses_nothing"]);
    expect(r.code).toBe(1);
    expect(String((r.error as Error).message)).toContain("is not held");
  });

  test("MEMNOX_POLICIES with a comma-separated list reads each file", async () => {
    using repo = gitRepo({
      "a.toml": rule("no-force-push", "git.push-force", "deny"),
      "b.toml": rule("ask-before-rm", "filesystem.delete", "ask"),
    });
    const env = { MEMNOX_POLICIES: `${join(repo.path, "a.toml")}, ${join(repo.path, "b.toml")}` };
    const { ctx, io } = testContext(home, { args: ["policy", "check", "--json"], env, cwd: repo.path });
    expect(await run(ctx)).toBe(0);
    const report = JSON.parse(io.stdout()) as { files: { path: string }[] };
    const files = report.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining([join(repo.path, "a.toml"), join(repo.path, "b.toml")]));
  });

  test("trace with no id shows the last action", async () => {
    const ids = await someRows(3);
    const r = await cli(["trace", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).event.id).toBe(ids.at(-1));
  });
});

/** Real decision rows, through the gate every seam uses. */
async function someRows(n: number): Promise<string[]> {
  const { ctx } = testContext(home);
  const gate = createGate(ctx);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = await gate.decide({ surface: "shell", command: `echo row-${i}`, cwd: home.home, canAsk: false });
    if (a.eventId) ids.push(a.eventId);
  }
  return ids;
}

function rule(name: string, action: string, effect: string): string {
  return [
    "version = 1",
    "[[policies]]",
    `name = "${name}"`,
    "[policies.match]",
    `actions = ["${action}"]`,
    "[policies.decision]",
    `effect = "${effect}"`,
    `reason = "${name}"`,
    "",
  ].join("\n");
}
