// Two scans compared: what widened what an agent can reach, and what narrowed it, kept apart. Pure.
import { writeCapable } from "./outside.ts";
import { toolSummary } from "./render.ts";
import type { Inventory, ServerRow } from "./types.ts";

export interface Change {
  readonly sign: "+" | "-";
  readonly kind: "agent" | "shell" | "server" | "tool" | "secret" | "cli";
  readonly label: string;
  readonly detail: string;
  readonly file?: string | undefined;
  readonly widens: boolean;
  /** The new reach can change something (a write tool, a credential, a shell): what `--fail-on write-capable` counts. */
  readonly writeCapable: boolean;
}

const served = (inv: Inventory) => {
  const used = new Set(inv.agents.flatMap((a) => a.servers));
  return new Map(inv.mcpServers.filter((s) => used.has(s.id)).map((s) => [s.id, s]));
};

function serverWrites(s: ServerRow): boolean {
  return s.tools === null || s.tools.some((t) => writeCapable(t.class));
}

function agents(a: Inventory, b: Inventory): Change[] {
  const before = new Map(a.agents.map((x) => [x.id, x]));
  const after = new Map(b.agents.map((x) => [x.id, x]));
  const out: Change[] = [];
  for (const [id, x] of after) {
    const was = before.get(id);
    if (!was) {
      const writes = x.shell.has || x.servers.length > 0;
      out.push({
        sign: "+",
        kind: "agent",
        label: x.name,
        detail: x.shell.why,
        file: x.evidence[0]?.path,
        widens: true,
        writeCapable: writes,
      });
    } else if (x.shell.has !== was.shell.has) {
      out.push({
        sign: x.shell.has ? "+" : "-",
        kind: "shell",
        label: x.name,
        detail: x.shell.why,
        file: x.shell.grantedBy,
        widens: x.shell.has,
        writeCapable: x.shell.has,
      });
    }
  }
  for (const [id, x] of before) {
    if (!after.has(id))
      out.push({ sign: "-", kind: "agent", label: x.name, detail: "removed", widens: false, writeCapable: false });
  }
  return out;
}

function servers(a: Inventory, b: Inventory): Change[] {
  const before = served(a);
  const after = served(b);
  const out: Change[] = [];
  for (const [id, s] of after) {
    const was = before.get(id);
    if (!was) {
      out.push({
        sign: "+",
        kind: "server",
        label: s.name,
        detail: toolSummary(s),
        file: s.file,
        widens: true,
        writeCapable: serverWrites(s),
      });
      continue;
    }
    if (s.tools === null || was.tools === null) continue;
    const old = new Map(was.tools.map((t) => [t.name, t]));
    const now = new Map(s.tools.map((t) => [t.name, t]));
    for (const [name, t] of now) {
      if (!old.has(name))
        out.push({
          sign: "+",
          kind: "tool",
          label: `${s.name}.${name}`,
          detail: t.class,
          file: s.file,
          widens: true,
          writeCapable: writeCapable(t.class),
        });
    }
    for (const name of old.keys()) {
      if (!now.has(name))
        out.push({
          sign: "-",
          kind: "tool",
          label: `${s.name}.${name}`,
          detail: "removed",
          file: s.file,
          widens: false,
          writeCapable: false,
        });
    }
  }
  for (const [id, s] of before) {
    if (!after.has(id))
      out.push({
        sign: "-",
        kind: "server",
        label: s.name,
        detail: "removed",
        file: s.file,
        widens: false,
        writeCapable: false,
      });
  }
  return out;
}

function secrets(a: Inventory, b: Inventory): Change[] {
  const reach = (inv: Inventory) =>
    new Map(inv.credentials.filter((c) => c.via.length > 0).map((c) => [c.path, c] as const));
  const agentsOf = (c: { via: readonly { agentId: string }[] }) => new Set(c.via.map((v) => v.agentId)).size;
  const before = reach(a);
  const after = reach(b);
  const out: Change[] = [];
  for (const [path, c] of after) {
    const was = before.get(path);
    const n = agentsOf(c);
    if (!was || agentsOf(was) < n)
      out.push({
        sign: "+",
        kind: "secret",
        label: c.label,
        detail: `reachable by ${n} agent${n === 1 ? "" : "s"}`,
        file: path,
        widens: true,
        writeCapable: true,
      });
  }
  for (const [path, c] of before) {
    if (!after.has(path))
      out.push({
        sign: "-",
        kind: "secret",
        label: c.label,
        detail: "no longer reachable",
        file: path,
        widens: false,
        writeCapable: false,
      });
  }
  return out;
}

function clis(a: Inventory, b: Inventory): Change[] {
  const before = new Set(a.clis.map((c) => c.cli));
  const after = new Set(b.clis.map((c) => c.cli));
  return [
    ...b.clis
      .filter((c) => !before.has(c.cli))
      .map(
        (c): Change => ({
          sign: "+",
          kind: "cli",
          label: c.cli,
          detail: `${c.outside} verbs change something outside`,
          file: c.credential,
          widens: true,
          writeCapable: c.outside > 0,
        }),
      ),
    ...a.clis
      .filter((c) => !after.has(c.cli))
      .map(
        (c): Change => ({
          sign: "-",
          kind: "cli",
          label: c.cli,
          detail: "no longer authenticated",
          file: c.credential,
          widens: false,
          writeCapable: false,
        }),
      ),
  ];
}

export function compareScans(before: Inventory, after: Inventory): Change[] {
  return [...agents(before, after), ...servers(before, after), ...secrets(before, after), ...clis(before, after)];
}
