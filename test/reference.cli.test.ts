// The reference the product ships (docs/reference/cli.md) against the compiled binary: every command it lists has a
// `--help`, and every flag it names for that command is in it. A command or flag the page names and the binary
// lacks, or a page that forgot one, fails here the day it happens.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fakeHome, runBinary } from "./support/index.ts";

const PAGE = readFileSync(join(import.meta.dir, "..", "docs", "reference", "cli.md"), "utf8");

interface Listed {
  readonly command: readonly string[];
  readonly flags: readonly string[];
}

/** Each `- \`memnox <words>\` — … Flags: \`--a\`, \`--b <x>\`.` bullet: the command's words and the flags it names. */
function listed(page: string): Listed[] {
  const out: Listed[] = [];
  for (const line of page.split("\n")) {
    const m = /^- `memnox ([a-z][a-z -]*)` — /.exec(line);
    if (!m?.[1]) continue;
    const flagsPart = line.slice(line.indexOf("Flags:") + 1 || line.length);
    const flags = [...flagsPart.matchAll(/`(--[a-z][a-z-]*)/g)].map((f) => f[1] ?? "");
    out.push({ command: m[1].trim().split(" "), flags: line.includes("Flags:") ? flags : [] });
  }
  return out;
}

const commands = listed(PAGE);
const home = fakeHome();
const helps = new Map<string, { code: number; stdout: string; stderr: string }>();

// Every help read up front, a few at a time: each is a process start, and the checks below only read them.
beforeAll(async () => {
  const queue = [...commands];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      helps.set(
        c.command.join(" "),
        await runBinary("memnox", [...c.command, "--help"], { env: home.env(), cwd: home.home }),
      );
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}, 120_000);

afterAll(() => home[Symbol.dispose]());

test("the page lists the commands it documents", () => {
  expect(commands.length).toBeGreaterThan(50);
});

test.each(commands.map((c) => [c.command.join(" "), c] as const))(
  "memnox %s --help names every flag the page does",
  (_, c) => {
    const r = helps.get(c.command.join(" "));
    expect(r?.code, r?.stderr).toBe(0);
    expect(r?.stdout).toContain(`memnox ${c.command.join(" ")}`);
    const missing = c.flags.filter((f) => !new RegExp(`(^|[\\s,])${f}(?![a-z-])`, "m").test(r?.stdout ?? ""));
    expect(missing, r?.stdout).toEqual([]);
  },
);

test("every command in `memnox help --all` is on the page", async () => {
  const r = await runBinary("memnox", ["help", "--all"], { env: home.env(), cwd: home.home });
  const names = [...r.stdout.matchAll(/^ {2}([a-z][a-z-]*) /gm)].map((m) => m[1] ?? "");
  // The control plane's server and the memory have pages of their own (README: "A control plane", "Memory").
  const elsewhere = new Set(["cloud", "memory", "ui"]);
  const onPage = new Set(commands.map((c) => c.command[0]));
  expect(names.filter((n) => !onPage.has(n) && !elsewhere.has(n))).toEqual([]);
});
