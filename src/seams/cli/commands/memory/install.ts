// `memnox memory install | uninstall <harness>` (and `memory harness install | uninstall`): memex's adapters.
import type { CommandDef } from "citty";
import { MemnoxError } from "../../../../core/errors.ts";
import { command } from "../../command.ts";
import { common, type MemoryCli, say } from "./_cli.ts";
import { HARNESS_NAMES, type HarnessName, installHarness, uninstallHarness } from "./_harness.ts";

const harness = {
  type: "positional",
  required: false,
  description: `the harness: ${HARNESS_NAMES.join(", ")}`,
} as const;

/** The harness named, or (at a terminal, with none named) the one picked from a numbered list. */
async function chosen(cli: MemoryCli, given: unknown, verb: string): Promise<HarnessName> {
  if (typeof given === "string" && given) {
    const h = HARNESS_NAMES.find((n) => n === given);
    if (!h)
      throw new MemnoxError(
        "usage",
        `unknown harness \`${given}\``,
        `memnox memory ${verb} ${HARNESS_NAMES.join("|")}`,
      );
    return h;
  }
  if (!cli.ctx.io.stdinIsTTY || verb !== "install")
    throw new MemnoxError("usage", `name the harness to ${verb}`, `memnox memory ${verb} ${HARNESS_NAMES.join("|")}`);
  cli.ctx.io.out(
    `Install memnox memory for which harness?\n${HARNESS_NAMES.map((n, i) => `  ${i + 1}. ${n === "custom" ? "custom — initialize the memory store only" : n}`).join("\n")}\nChoice [1-${HARNESS_NAMES.length}]: `,
  );
  const answer = (await cli.ctx.io.readAll()).trim().split("\n")[0] ?? "";
  const h = HARNESS_NAMES[Number(answer) - 1];
  if (!h) throw new MemnoxError("usage", "invalid choice");
  return h;
}

const install = (cli: MemoryCli, name = "install") =>
  command({
    meta: {
      name,
      description: "wire memory into a harness: hooks, MCP where it has it, guidance; idempotent, backed up",
    },
    args: {
      ...common,
      harness,
      mcp: {
        type: "boolean",
        default: true,
        description: "register the MCP server where the harness supports it (--no-mcp skips it)",
        negativeDescription: "skip MCP server registration everywhere",
      },
    },
    async run({ args }) {
      cli.ran = true;
      const h = await chosen(cli, args.harness, "install");
      const r = installHarness(cli.ctx, h, { mcp: args.mcp !== false });
      say(cli, args, r, () => [
        `memnox memory installed for ${r.harness}`,
        ...r.files_written.map((f) => `  wrote   ${f}`),
        ...r.files_merged.map((f) => `  merged  ${f}`),
        ...r.notes.map((n) => `  note: ${n}`),
      ]);
      cli.code = 0;
      return 0;
    },
  });

const uninstall = (cli: MemoryCli, name = "uninstall") =>
  command({
    meta: { name, description: "take a harness's memory adapter back out; memories, transcripts and config stay" },
    args: { ...common, harness },
    async run({ args }) {
      cli.ran = true;
      const h = await chosen(cli, args.harness, "uninstall");
      const r = uninstallHarness(cli.ctx, h);
      say(cli, args, r, () => [
        `memnox memory uninstalled from ${r.harness}`,
        ...r.files_removed.map((f) => `  removed ${f}`),
        ...r.files_updated.map((f) => `  updated ${f}`),
        ...r.notes.map((n) => `  note: ${n}`),
      ]);
      cli.code = 0;
      return 0;
    },
  });

export const installCommand = install;
export const uninstallCommand = uninstall;

export const harnessCommand = (cli: MemoryCli): CommandDef =>
  command({
    meta: { name: "harness", description: "harness adapters: install and uninstall (the same as memory install)" },
    subCommands: { install: install(cli), uninstall: uninstall(cli) },
  });
