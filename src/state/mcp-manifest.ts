// The server's tools as memnox classified them, kept at <root>/mcp/<server>.json for the scan and the next start.
import { join } from "node:path";
import type { ActionClass } from "../core/action.ts";
import { isActionClass } from "../core/action.ts";
import { isRecord } from "../core/record.ts";
import { readJsonIfExists, writeJsonAtomic } from "../io/files.ts";
import type { ToolBasis, ToolHints } from "../resolve/mcp-tools.ts";

const MANIFEST_VERSION = 1;

export interface ManifestTool {
  readonly name: string;
  readonly title?: string;
  readonly class: ActionClass;
  readonly basis: ToolBasis;
  readonly hidden: boolean;
  /** Who hid it: MEMNOX_TOOLS_ALLOW or MEMNOX_TOOLS_DENY. */
  readonly hiddenBy?: string;
  /** What the server claimed, booleans only; a hint, never trusted to lower a class. */
  readonly hints?: ToolHints;
}

interface Manifest {
  readonly version: number;
  readonly server: string;
  readonly updatedAt: string;
  /** False while the agent has not read the last page. */
  readonly complete: boolean;
  readonly tools: readonly ManifestTool[];
}

export function manifestPath(dir: string, server: string): string {
  return join(dir, `${server}.json`);
}

/** Pages of `tools/list` as the agent reads them; a request without a cursor starts over. */
export class ManifestBuilder {
  private tools = new Map<string, ManifestTool>();

  constructor(
    private readonly dir: string,
    private readonly server: string,
    private readonly now: () => number,
    cached: readonly ManifestTool[] = [],
  ) {
    for (const t of cached) this.tools.set(t.name, t);
  }

  classOf(tool: string): ActionClass | undefined {
    return this.tools.get(tool)?.class;
  }

  page(tools: readonly ManifestTool[], firstPage: boolean, complete: boolean): void {
    if (firstPage) this.tools = new Map();
    for (const t of tools) this.tools.set(t.name, t);
    const manifest: Manifest = {
      version: MANIFEST_VERSION,
      server: this.server,
      updatedAt: new Date(this.now()).toISOString(),
      complete,
      tools: [...this.tools.values()],
    };
    writeJsonAtomic(manifestPath(this.dir, this.server), manifest);
  }
}

/** The tools of the last run, or none when the file is absent or not ours. */
export function loadManifest(dir: string, server: string): ManifestTool[] {
  let raw: unknown;
  try {
    raw = readJsonIfExists(manifestPath(dir, server));
  } catch {
    return [];
  }
  if (!isRecord(raw) || raw.version !== MANIFEST_VERSION || !Array.isArray(raw.tools)) return [];
  return raw.tools.filter(
    (t): t is ManifestTool =>
      isRecord(t) && typeof t.name === "string" && isActionClass(t.class) && typeof t.basis === "string",
  );
}
