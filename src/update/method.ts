// How this copy was installed, read off its path and the install receipt, and so how to upgrade it. Pure.

import { shellWord } from "../core/shell-quote.ts";
import type { InstallReceipt } from "./receipt.ts";
import { LATEST_BASE } from "./release-index.ts";

type Method = "script" | "npm" | "pnpm" | "bun" | "npx" | "pnpm-dlx" | "bunx" | "yarn" | "project" | "unknown";

/** memnox runs the upgrade itself: install.sh again, or the package manager that owns the binary. */
export type Plan =
  | {
      readonly kind: "script";
      readonly method: "script";
      readonly command: string;
      readonly prefix: string;
      /** MEMNOX_INSTALL_BASE for the script, when releases come from somewhere other than GitHub. */
      readonly base: string | undefined;
      readonly binary: string;
    }
  | {
      readonly kind: "package-manager";
      readonly method: "npm" | "pnpm" | "bun";
      readonly command: string;
      readonly argv: readonly string[];
      /** The binary the package manager replaces; it runs `update --rewire` afterwards. */
      readonly binary: string;
    }
  | { readonly kind: "print"; readonly method: Method; readonly command: string; readonly why: string };

interface Whereabouts {
  /** The running binary, symlinks resolved. */
  readonly execPath: string;
  /** ~/.memnox/app/memnox, symlinks resolved. */
  readonly app: string;
  readonly receipt: InstallReceipt | undefined;
  /** Where the release index was read: a script upgrade fetches from the same place. */
  readonly base: string;
}

const PLATFORM_BIN = "node_modules/@memnox/[^/]+/bin/memnox$";
const PNPM_STORE = String.raw`node_modules/\.pnpm/[^/]+/`;

export function upgradePlan(w: Whereabouts, version: string): Plan {
  if (w.execPath === w.app) {
    const r = w.receipt;
    if (r?.method === "script") return scriptPlan(w, r.prefix, version);
    if (r?.method === "copy") return fromPath(r.source, version);
    return {
      kind: "print",
      method: "unknown",
      command: `${scriptCommand(w.base, version)}   (or: npm install -g memnox@${version})`,
      why: `nothing records how ${w.app} was installed (no install.json beside it), so run the way you installed it`,
    };
  }
  return fromPath(w.execPath, version);
}

function scriptPlan(w: Whereabouts, prefix: string, version: string): Plan {
  return {
    kind: "script",
    method: "script",
    command: `${scriptCommand(w.base, version)} --prefix ${shellWord(prefix)}`,
    prefix,
    base: w.base === LATEST_BASE ? undefined : w.base,
    binary: w.app,
  };
}

function scriptCommand(base: string, version: string): string {
  const env = base === LATEST_BASE ? "" : `MEMNOX_INSTALL_BASE=${shellWord(base)} `;
  return `curl -fsSL ${shellWord(`${base}/install.sh`)} | ${env}sh -s -- --version ${version}`;
}

/** The package manager a binary belongs to, from where it sits. */
function fromPath(binary: string, version: string): Plan {
  const spec = `memnox@${version}`;
  const print = (method: Method, command: string, why: string): Plan => ({ kind: "print", method, command, why });
  if (/\/_npx\//.test(binary))
    return print("npx", `npx ${spec} setup`, "this copy came from the npx cache, which npx refreshes by itself");
  if (/\/dlx\//.test(binary) && /\/\.pnpm\//.test(binary))
    return print("pnpm-dlx", `pnpm dlx ${spec} setup`, "this copy came from the pnpm dlx cache");
  if (/\/bunx-[^/]*\//.test(binary)) return print("bunx", `bunx ${spec} setup`, "this copy came from the bunx cache");
  const npm = new RegExp(`^(.*)/lib/node_modules/memnox/${PLATFORM_BIN}`).exec(binary);
  if (npm?.[1] !== undefined) {
    const argv = ["npm", "install", "--global", "--prefix", npm[1], spec];
    return { kind: "package-manager", method: "npm", command: argv.map(shellWord).join(" "), argv, binary };
  }
  if (new RegExp(String.raw`/global/\d+/${PNPM_STORE}${PLATFORM_BIN}`).test(binary)) {
    const argv = ["pnpm", "add", "--global", spec];
    return { kind: "package-manager", method: "pnpm", command: argv.join(" "), argv, binary };
  }
  if (new RegExp(String.raw`/\.bun/install/global/${PLATFORM_BIN}`).test(binary)) {
    const argv = ["bun", "add", "--global", spec];
    return { kind: "package-manager", method: "bun", command: argv.join(" "), argv, binary };
  }
  if (new RegExp(`/yarn/global/${PLATFORM_BIN}`).test(binary))
    return print("yarn", `yarn global add ${spec}`, "yarn owns this copy; memnox does not run yarn for you");
  const project = new RegExp(`^(.*?)/(?:${PNPM_STORE})?${PLATFORM_BIN}`).exec(binary);
  if (project?.[1] !== undefined) {
    const dir = project[1].replace(/\/node_modules\/memnox$/, "");
    const pnpm = binary.includes("/node_modules/.pnpm/");
    const command = `cd ${shellWord(dir)} && ${pnpm ? "pnpm add" : "npm install"} ${spec}`;
    return print("project", command, `this copy belongs to the project in ${dir}, whose dependencies are its own`);
  }
  return print(
    "unknown",
    `${scriptCommand(LATEST_BASE, version)}   (or: npm install -g ${spec})`,
    `nothing about ${binary} says how it was installed, so run the way you installed it`,
  );
}
