// Combined capability: tools that are each ordinary but together move something out. Read from tool names only
// (acquire -> optional package -> emit, grouped by the subject they act on), split on separators and camel humps
// so `budget` never reads as `get`. Pure; no model is consulted.
import type { ActionClass } from "../core/action.ts";
import { toolWords } from "../resolve/mcp-tools.ts";
import type { ChainLink, ChainRow } from "./types.ts";

export interface ChainTool {
  readonly server: string;
  readonly tool: string;
  readonly class: ActionClass;
}

const ACQUIRE = new Set(["read", "get", "list", "query", "fetch", "download"]);
const PACKAGE = new Set(["export", "archive", "backup", "snapshot"]);
const EMIT = new Set(["send", "post", "publish", "upload", "forward"]);
const NOT_A_SUBJECT = new Set(
  "a an the and or of to from for by with in on at all my id ids new data info details content contents item items".split(
    " ",
  ),
);

function singular(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

interface Read {
  readonly t: ChainTool;
  readonly link?: ChainLink;
  readonly subjects: ReadonlySet<string>;
}

function read(t: ChainTool): Read {
  const ws = toolWords(t.tool);
  const head = ws[0] ?? "";
  const link: ChainLink | undefined = ACQUIRE.has(head)
    ? "acquire"
    : EMIT.has(head)
      ? "emit"
      : ws.some((w) => PACKAGE.has(w))
        ? "package"
        : undefined;
  const subjects = new Set(
    ws.filter((w, i) => i > 0 && !PACKAGE.has(w) && !NOT_A_SUBJECT.has(w) && !/^\d+$/.test(w)).map(singular),
  );
  return { t, ...(link ? { link } : {}), subjects };
}

const byName = (a: Read, b: Read) => `${a.t.server}.${a.t.tool}`.localeCompare(`${b.t.server}.${b.t.tool}`);

/** One chain per subject an agent's tools can acquire and emit, none whose steps destroy on their own. */
export function chainsFor(agentId: string, tools: readonly ChainTool[]): ChainRow[] {
  const reads = tools.filter((t) => t.class !== "destructive").map(read);
  const of = (link: ChainLink) => reads.filter((r) => r.link === link).sort(byName);
  const acquire = of("acquire");
  const pack = of("package");
  const emit = of("emit");
  const out: ChainRow[] = [];
  const subjects = [...new Set(acquire.flatMap((r) => [...r.subjects]))].sort();
  for (const subject of subjects) {
    const a = acquire.find((r) => r.subjects.has(subject));
    const e = emit.find((r) => r.subjects.has(subject) && r !== a);
    if (!a || !e) continue;
    const p = pack.find((r) => r.subjects.has(subject));
    const steps = [a, ...(p ? [p] : []), e].map((r) => ({
      link: r.link ?? "acquire",
      server: r.t.server,
      tool: r.t.tool,
    }));
    out.push({
      agentId,
      subject,
      consequence: `${subject} data can leave, in one session`,
      steps,
      individuallyHarmless: true,
    });
  }
  return out;
}
