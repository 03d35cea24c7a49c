// Running an upgrade plan: install.sh of the new release, or the package manager that owns this copy; then the
// new binary re-points the wiring at itself (`memnox update --rewire`) and must report the new version.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import type { Env, Proc, RunResult } from "../ports/index.ts";
import { type Fetch, fetchVerified } from "./latest.ts";
import type { Plan } from "./method.ts";
import type { ReleaseIndex } from "./release-index.ts";

interface UpgradeDeps {
  readonly proc: Proc;
  readonly env: Env;
  readonly fetch: Fetch;
}

interface Upgraded {
  /** What the installer and the rewiring printed, in order. */
  readonly output: string;
  readonly binary: string;
}

type Runnable = Exclude<Plan, { kind: "print" }>;

export async function runUpgrade(plan: Runnable, index: ReleaseIndex, base: string, d: UpgradeDeps): Promise<Upgraded> {
  const output: string[] = [];
  if (plan.kind === "script") {
    // install.sh runs `update --rewire` with the new binary itself, as it does when a person re-runs it.
    output.push(await runScript(plan, index, base, d));
  } else {
    output.push(step(await d.proc.run(plan.argv, { env: d.env }), plan.command));
    output.push(step(await d.proc.run([plan.binary, "update", "--rewire"], { env: d.env }), "memnox update --rewire"));
  }
  const check = await d.proc.run([plan.binary, "--version"], { env: d.env });
  const now = new TextDecoder().decode(check.stdout).trim();
  if (check.code !== 0 || now !== index.version)
    throw new MemnoxError(
      "io",
      `the upgrade finished, but \`${plan.binary}\` reports ${now || "nothing"} rather than ${index.version}`,
      `run it by hand: ${plan.command}`,
    );
  return { output: output.filter(Boolean).join(""), binary: plan.binary };
}

async function runScript(plan: Extract<Plan, { kind: "script" }>, index: ReleaseIndex, base: string, d: UpgradeDeps) {
  const url = `${base}/${index.installScript.file}`;
  let script: Uint8Array;
  try {
    script = await fetchVerified(url, index.installScript.sha256, d.fetch);
  } catch (e) {
    throw new MemnoxError("io", `could not fetch install.sh: ${(e as Error).message}; nothing was changed`);
  }
  const dir = mkdtempSync(join(tmpdir(), "memnox-update-"));
  try {
    const file = join(dir, "install.sh");
    writeFileSync(file, script, { mode: 0o700 });
    const env: Record<string, string | undefined> = { ...d.env, MEMNOX_INSTALL_BASE: plan.base };
    const argv = ["sh", file, "--version", index.version, "--prefix", plan.prefix];
    return step(await d.proc.run(argv, { env }), "install.sh");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function step(r: RunResult, what: string): string {
  const out = new TextDecoder().decode(r.stdout);
  if (r.code !== 0) {
    const said = `${out}${r.stderr}`.trim().split("\n").slice(-3).join("; ");
    throw new MemnoxError("io", `\`${what}\` failed (exit ${r.code})${said ? `: ${said}` : ""}`);
  }
  return `${out}${r.stderr}`;
}
