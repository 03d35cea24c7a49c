// Guards on the shape: the pure core stays pure, the hot path stays lean, nobody reads the environment below bin/.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return walk(p);
    return p.endsWith(".ts") && !p.endsWith(".test.ts") ? [p] : [];
  });
}

/** Static, value-level imports of a module (type-only imports and dynamic import() excluded). */
export function staticImports(file: string): string[] {
  const src = readFileSync(file, "utf8");
  const out: string[] = [];
  const re = /^\s*(?:import|export)\s+(?!type\b)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;
  for (const m of src.matchAll(re)) if (m[1]) out.push(m[1]);
  return out;
}

function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const p = resolve(dirname(from), spec);
  return existsSync(p) ? p : undefined;
}

/** Every module reachable from `entry` by static imports: local files and bare package names. */
function closure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const f = todo.pop();
    if (!f || files.has(f)) continue;
    files.add(f);
    for (const spec of staticImports(f)) {
      const local = resolveLocal(f, spec);
      if (local) todo.push(local);
      else if (!spec.startsWith(".")) packages.add(spec);
    }
  }
  return { files, packages };
}

const rel = (p: string) => relative(ROOT, p);

/**
 * The rooms of the tree, top to bottom, and which rooms each may import. A room is a folder: under src/ named without
 * `src/`, or bin/, bin/release/ and hooks/. A file belongs to the longest room that holds it, so `seams/cli` and
 * `seams/shim` are rooms of their own, as are the `memory/<part>` folders below `memory` (whose own files are its API).
 * Inside a room any file may import any other, but never round a circle. `X/*` names X and every room below it.
 */
const LAYERS = [
  "bin -> seams/*, daemon, cloud, adapters, ports, core",
  "bin/release -> update, build.ts",
  "seams/cli -> seams/shared, daemon, workspace, cloud, wall/*, scan, wire, update, memory/*, rewind, gate, policy, ledger, state, resolve, hooks, io, ports, core",
  "seams/session -> seams/shared, memory/*, rewind, gate, ledger, state, resolve, io, ports, core",
  "seams/hook -> seams/shared, wall, memory/*, gate, hooks, io, ports, core",
  "seams/mcp-proxy -> seams/shared, gate, ledger, state, resolve, io, ports, core",
  "seams/shell, seams/shim -> seams/shared, wall, gate, resolve, io, ports, core",
  "seams/wall -> wall, io, ports, core",
  "seams/shared -> wall, rewind, gate, ledger, state, io, ports, core",
  "daemon -> workspace, wall/*, scan, wire, gate, policy, ledger, state, resolve, hooks, io, ports, core",
  "workspace -> cloud/protocol, gate, policy, ledger, state, io, ports, core",
  "cloud -> cloud/protocol, policy, ledger, io, ports, core",
  "cloud/protocol -> core",
  "wall/facts -> wall, scan, wire, policy, state, hooks, io, ports, core",
  "wall -> policy, state, hooks, io, ports, core",
  "scan -> wire, gate, policy, ledger, state, resolve, hooks, io, ports, core",
  "wire -> update, memory, gate, policy, ledger, state, resolve, hooks, io, ports, core",
  "memory -> memory/viz, memory/types, memory/portability, memory/recall, memory/pages, memory/search, memory/format, io, ports, core",
  "memory/viz -> memory/recall, memory/pages, memory/search, memory/format, io, ports, core",
  "memory/portability -> memory/types, memory/pages, memory/search, memory/format, io, ports, core",
  "memory/types -> memory/pages, memory/search, memory/format, io, ports, core",
  "memory/recall -> memory/pages, memory/search, memory/format, io, ports, core",
  "memory/pages -> memory/search, memory/format, io, ports, core",
  "memory/search -> memory/format, io, ports, core",
  "memory/format -> io, ports, core",
  "update -> io, ports, core",
  "rewind -> ledger, io, ports, core",
  "gate -> policy, ledger, state, resolve, io, ports, core",
  "policy -> resolve, io, ports, core",
  "state -> resolve, io, ports, core",
  "ledger -> io, ports, core",
  "hooks -> io, core",
  "adapters -> io, ports, core",
  "resolve -> core",
  "io -> core",
  "ports -> core",
  "core ->",
] as const;

interface Layer {
  readonly line: string;
  readonly may: ReadonlySet<string>;
}

function parseLayers(lines: readonly string[]): Map<string, Layer> {
  const rooms = lines.flatMap((l) => (l.split("->")[0] ?? "").split(",").map((r) => r.trim()));
  const layers = new Map<string, Layer>();
  for (const line of lines) {
    const [left = "", right = ""] = line.split("->");
    const may = new Set(
      right
        .split(",")
        .map((d) => d.trim())
        .filter(Boolean)
        .flatMap((d) =>
          d.endsWith("/*") ? rooms.filter((r) => r === d.slice(0, -2) || r.startsWith(d.slice(0, -1))) : [d],
        ),
    );
    for (const room of left.split(",").map((r) => r.trim())) layers.set(room, { line, may });
  }
  return layers;
}

/**
 * Beside the layers, not in them: the build script, which runs before any of this exists (bin/release imports its
 * target table, and it loads bin/release for `--release`).
 */
const BESIDE = ["build.ts"];

const ROOMS = parseLayers(LAYERS);
const roomPath = (room: string) => (/^(bin|hooks)\b/.test(room) || BESIDE.includes(room) ? room : `src/${room}`);

/** The longest room holding a repository path, if any. */
function roomOf(path: string): string | undefined {
  let best: string | undefined;
  for (const room of [...ROOMS.keys(), ...BESIDE]) {
    const p = roomPath(room);
    const holds = path === p || path.startsWith(`${p}/`);
    if (holds && (!best || p.length > roomPath(best).length)) best = room;
  }
  return best;
}

/** Every relative module a file names: static, `import type`, `export … from`, dynamic `import()`, `require()`. */
function relativeImports(file: string): string[] {
  const src = readFileSync(file, "utf8");
  const re = /\b(?:from|import|require)\s*\(?\s*["'](\.\.?\/[^"'\n]+)["']/g;
  return [...src.matchAll(re)].flatMap((m) => (m[1] ? [m[1]] : []));
}

const LAYERED = () => [...walk(join(ROOT, "src")), ...walk(join(ROOT, "bin")), ...walk(join(ROOT, "hooks"))];

/** Room -> room edges actually imported, each with one file pair that makes it. */
function roomEdges(): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const file of LAYERED()) {
    const from = roomOf(rel(file));
    for (const spec of relativeImports(file)) {
      const target = rel(resolve(dirname(file), spec));
      const to = roomOf(target);
      if (!from || !to || from === to) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${rel(file)} imports ${target}`);
      edges.set(from, out);
    }
  }
  return edges;
}

/** File -> file imports (every kind `relativeImports` names) between files of one room. */
function fileEdgesInsideRooms(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of LAYERED()) {
    const from = rel(file);
    const room = roomOf(from);
    const out = relativeImports(file)
      .map((spec) => rel(resolve(dirname(file), spec)))
      .filter((to) => to !== from && roomOf(to) === room);
    graph.set(from, [...new Set(out)]);
  }
  return graph;
}

/** Every group of two or more nodes that reach each other (Tarjan's strongly connected components). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
      onStack.delete(w);
      group.push(w);
    }
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** A cycle in a graph as `a -> b -> a`, or undefined. */
function findCycle(graph: ReadonlyMap<string, Iterable<string>>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    if (state.get(n) === "done") return undefined;
    if (state.get(n) === "open") return [...stack.slice(stack.indexOf(n)), n];
    state.set(n, "open");
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      const c = visit(m);
      if (c) return c;
    }
    stack.pop();
    state.set(n, "done");
    return undefined;
  };
  for (const n of graph.keys()) {
    const c = visit(n);
    if (c) return c;
  }
  return undefined;
}

describe("layers", () => {
  test("every room the table's right-hand sides name has a line of its own", () => {
    for (const { line, may } of ROOMS.values())
      for (const d of may)
        expect(ROOMS.has(d) || BESIDE.includes(d), `"${d}" in the line "${line}" has no line`).toBe(true);
  });

  test("every file under src/, bin/ and hooks/ is in a room of the table", () => {
    const homeless = LAYERED()
      .map(rel)
      .filter((f) => !roomOf(f));
    expect(homeless, "give each folder a line in LAYERS (test/architecture.test.ts)").toEqual([]);
  });

  test("every relative import (static, type, re-export, dynamic) follows a line of the table", () => {
    const broken: string[] = [];
    for (const file of LAYERED()) {
      const from = roomOf(rel(file));
      const layer = from ? ROOMS.get(from) : undefined;
      if (!from || !layer) continue;
      for (const spec of relativeImports(file)) {
        const target = rel(resolve(dirname(file), spec));
        const to = roomOf(target);
        if (to === from) continue;
        if (!to) broken.push(`${rel(file)} imports ${target}, which is in no room of the table`);
        else if (!layer.may.has(to))
          broken.push(`${rel(file)} imports ${target}: ${from} -> ${to} is not in the line "${layer.line}"`);
      }
    }
    expect(broken).toEqual([]);
  });

  test("the table has no cycle: no room may reach itself through the rooms it may import", () => {
    const graph = new Map([...ROOMS].map(([room, l]) => [room, l.may] as const));
    expect(findCycle(graph)?.join(" -> ")).toBeUndefined();
  });

  test("no cycle between rooms in the imports themselves (at the table's granularity: seams/<face>, memory/<part>)", () => {
    const edges = roomEdges();
    const cycle = findCycle(new Map([...edges].map(([room, out]) => [room, out.keys()] as const)));
    const why = cycle?.slice(1).map((to, i) => edges.get(cycle[i] ?? "")?.get(to));
    expect(cycle ? `${cycle.join(" -> ")}: ${why?.join("; ")}` : undefined).toBeUndefined();
  });
});

describe("no circle inside a room", () => {
  // A circle is a hub that declares a shared name and imports its users: the shared name goes to a file of its own.
  test("no file reaches itself through the files of its own room (static, type, re-export, dynamic imports)", () => {
    const graph = fileEdgesInsideRooms();
    const found = circles(graph).map(
      (group) =>
        `${roomOf(group[0] ?? "")}: ${group
          .map((f) => `${f} -> ${(graph.get(f) ?? []).filter((t) => group.includes(t)).join(", ")}`)
          .join("; ")}`,
    );
    expect(found).toEqual([]);
  });

  test("the circle finder finds a chain of three and leaves a tree alone", () => {
    const chain = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(circles(chain)).toEqual([["a", "b", "c"]]);
    expect(
      circles(
        new Map([
          ["a", ["b", "c"]],
          ["b", ["c"]],
          ["c", []],
        ]),
      ),
    ).toEqual([]);
  });
});

describe("pure core", () => {
  const pureDirs = ["src/core", "src/resolve"];
  for (const dir of pureDirs) {
    test(`${dir} imports only src/core, itself and minimatch, and touches no process, clock or Bun`, () => {
      for (const file of walk(join(ROOT, dir))) {
        for (const spec of staticImports(file)) {
          const local = resolveLocal(file, spec);
          if (local) {
            const r = rel(local);
            expect(r.startsWith("src/core/") || r.startsWith(`${dir}/`), `${rel(file)} imports ${r}`).toBe(true);
          } else {
            expect(["minimatch"], `${rel(file)} imports ${spec}`).toContain(spec);
          }
        }
        const src = readFileSync(file, "utf8");
        expect(
          /\bprocess\.|\bBun\.|Date\.now\(|new Date\(\)/.test(src),
          `${rel(file)} reads process, Bun or the clock`,
        ).toBe(false);
      }
    });
  }

  test("the policy evaluator imports nothing but core, minimatch and its own pure files", () => {
    const engine = join(ROOT, "src/policy/engine");
    for (const file of walk(engine)) {
      const { files, packages } = closure(file);
      for (const f of files) {
        const r = rel(f);
        expect(r.startsWith("src/core/") || r.startsWith("src/policy/engine/"), `${rel(file)} reaches ${r}`).toBe(true);
      }
      for (const p of packages) expect(["minimatch"], `${rel(file)} reaches ${p}`).toContain(p);
      const src = readFileSync(file, "utf8");
      expect(
        /\bprocess\.|\bBun\.|Date\.now\(|new Date\(\)/.test(src),
        `${rel(file)} reads process, Bun or the clock`,
      ).toBe(false);
    }
  });
});

describe("hot path", () => {
  // node:crypto pulls in Node's streams and zlib: 3 ms of every hook's start; node:os and node:tty cost ~1 and ~5 ms.
  const heavy = [
    "citty",
    "consola",
    "@modelcontextprotocol/sdk",
    "yaml",
    "node:crypto",
    "@noble/ed25519",
    "node:os",
    "node:tty",
  ];
  for (const face of ["hook", "shim", "shell", "mcp-proxy"]) {
    test(`the ${face} face loads none of ${heavy.join(", ")} statically`, () => {
      const { packages } = closure(join(ROOT, "src/seams", face, "index.ts"));
      for (const p of packages) {
        for (const h of heavy) expect(p === h || p.startsWith(`${h}/`), `${face} reaches ${p}`).toBe(false);
      }
    });
  }

  test("the session face loads the MCP SDK only in server.ts, and only when it runs", () => {
    const { packages } = closure(join(ROOT, "src/seams/session/index.ts"));
    expect([...packages].some((p) => p.startsWith("@modelcontextprotocol/sdk"))).toBe(false);
    for (const file of walk(join(ROOT, "src/seams/session"))) {
      const sdk = staticImports(file).some((s) => s.startsWith("@modelcontextprotocol/sdk"));
      expect(sdk, `${rel(file)} imports the MCP SDK`).toBe(rel(file) === "src/seams/session/server.ts");
    }
  });

  // A hook the daemon answers (and whose outcome the daemon writes) must not pay for deciding in its own process.
  test("a tool call's hook, and createGate, load no rule loader, ledger, decide() or config schema statically", () => {
    const inProcess = [
      "src/policy/load/index.ts",
      "src/ledger/store.ts",
      "src/gate/decide.ts",
      "src/gate/wiring.ts",
      "src/state/config.ts",
    ];
    for (const entry of [
      "src/seams/hook/index.ts",
      "src/seams/hook/tool.ts",
      "src/seams/hook/done.ts",
      "src/gate/create.ts",
    ]) {
      const { files, packages } = closure(join(ROOT, entry));
      for (const f of inProcess) expect([...files].map(rel), `${entry} reaches ${f}`).not.toContain(f);
      for (const p of ["valibot", "bun:sqlite", "@noble/ed25519"]) expect([...packages], entry).not.toContain(p);
    }
  });

  test("bin/memnox.ts loads every face lazily", () => {
    const { packages, files } = closure(join(ROOT, "bin/memnox.ts"));
    expect([...packages].filter((p) => !p.startsWith("node:"))).toEqual([]);
    expect([...files].some((f) => rel(f).startsWith("src/seams/"))).toBe(false);
  });
});

test("nothing imports node:crypto: the bundle hoists builtin imports, so one import anywhere loads it in every face", () => {
  for (const file of [...walk(join(ROOT, "src")), ...walk(join(ROOT, "hooks")), join(ROOT, "bin/memnox.ts")]) {
    expect(
      staticImports(file).filter((s) => s === "node:crypto" || s === "crypto"),
      rel(file),
    ).toEqual([]);
  }
});

test("nothing imports node:tty (5-10 ms of Node streams at every start); stdio asks Bun's tty binding", () => {
  for (const file of [...walk(join(ROOT, "src")), ...walk(join(ROOT, "hooks")), join(ROOT, "bin/memnox.ts")]) {
    expect(
      staticImports(file).filter((s) => s === "node:tty" || s === "tty"),
      rel(file),
    ).toEqual([]);
  }
});

test("only bin/ reads process.env; everything below takes the environment as an argument", () => {
  for (const file of [...walk(join(ROOT, "src")), ...walk(join(ROOT, "hooks"))]) {
    const src = readFileSync(file, "utf8");
    expect(/process\.env\b/.test(src), `${rel(file)} reads process.env`).toBe(false);
  }
});

describe("memory", () => {
  test("what a hook calls (sessionReminders, remindersFor) loads no CLI, YAML, TOML, schema or MCP library", () => {
    for (const entry of ["src/memory/recall/session.ts", "src/memory/recall/remind.ts"]) {
      const { packages } = closure(join(ROOT, entry));
      const heavy = ["citty", "consola", "yaml", "@modelcontextprotocol/sdk", "smol-toml", "valibot"];
      for (const p of packages)
        for (const h of heavy) expect(p === h || p.startsWith(`${h}/`), `${entry} reaches ${p}`).toBe(false);
    }
  });

  test("consolidate is the only memory module that can reach the network", () => {
    for (const file of walk(join(ROOT, "src/memory"))) {
      const src = readFileSync(file, "utf8");
      const network = /\bfetch\(|node:https?|node:net|Bun\.connect|WebSocket/.test(src);
      expect(network, `${rel(file)} reaches the network`).toBe(rel(file) === "src/memory/consolidate.ts");
    }
  });

  test("in memory, only the dashboard listens, and only on loopback", () => {
    for (const file of walk(join(ROOT, "src/memory"))) {
      const src = readFileSync(file, "utf8");
      expect(/Bun\.serve\(|node:http/.test(src), `${rel(file)} listens`).toBe(rel(file) === "src/memory/viz/server.ts");
    }
    expect(readFileSync(join(ROOT, "src/memory/viz/server.ts"), "utf8")).toContain(
      'new Set(["127.0.0.1", "localhost", "::1"])',
    );
  });

  test("in memory, only the MCP server module loads the MCP SDK, and `memnox memory` reaches it lazily", () => {
    for (const file of walk(join(ROOT, "src/memory"))) {
      const sdk = staticImports(file).some((s) => s.startsWith("@modelcontextprotocol/sdk"));
      expect(sdk, `${rel(file)} imports the MCP SDK`).toBe(rel(file) === "src/memory/mcp.ts");
    }
    const { packages } = closure(join(ROOT, "src/seams/cli/commands/memory.ts"));
    expect([...packages].some((p) => p.startsWith("@modelcontextprotocol/sdk"))).toBe(false);
  });
});

test("the ledger's SQL stays in src/ledger: other rooms ask its named readers (ledger/read/, notices.ts)", () => {
  const asks: string[] = [];
  for (const file of walk(join(ROOT, "src"))) {
    const r = rel(file);
    // The control plane's `events` is its own PostgreSQL table; memory's index is its own SQLite file.
    if (/^src\/(ledger|cloud|memory)\//.test(r)) continue;
    const src = readFileSync(file, "utf8");
    if (/\b(?:FROM|JOIN|INTO|UPDATE)\s+(?:events|notices|notices_since)\b|\.select\(\s*["'`]/.test(src)) asks.push(r);
  }
  expect(asks).toEqual([]);
});

describe("the control plane and the workspace loop", () => {
  test("no hot-path face reaches src/cloud or src/workspace, even through another module", () => {
    for (const face of ["hook", "shim", "shell", "mcp-proxy"]) {
      const { files } = closure(join(ROOT, "src/seams", face, "index.ts"));
      const reached = [...files].map(rel).filter((f) => f.startsWith("src/cloud/") || f.startsWith("src/workspace/"));
      expect(reached, `the ${face} face reaches ${reached.join(", ")}`).toEqual([]);
    }
  });

  test("in src/workspace only transport.ts reaches the network, so its https check cannot be walked around", () => {
    for (const file of walk(join(ROOT, "src/workspace"))) {
      const src = readFileSync(file, "utf8");
      const network = /\bfetch\(|node:https?|node:net|Bun\.connect|WebSocket/.test(src);
      expect(network, `${rel(file)} reaches the network`).toBe(rel(file) === "src/workspace/transport.ts");
    }
  });

  test("the gate reads what a pull wrote and nothing of the loop: src/gate imports neither room", () => {
    for (const file of walk(join(ROOT, "src/gate"))) {
      const { files } = closure(file);
      const reached = [...files].map(rel).filter((f) => f.startsWith("src/cloud/") || f.startsWith("src/workspace/"));
      expect(reached, `${rel(file)} reaches ${reached.join(", ")}`).toEqual([]);
    }
  });
});

/**
 * SQL in a file: a template tagged by a handle as the code names them (`db`, `tx`, `sql`), any tag whose template opens
 * with a statement (a handle renamed is still caught), or a raw `.unsafe(` statement.
 */
const SQL_TEMPLATE = /\b[A-Za-z_$][\w$]*`\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH)\b|\b(?:db|tx|sql)`|\.unsafe\(/g;

/**
 * What SQL a file outside src/cloud/store/ still writes, by file and count: empty, every statement has moved behind a
 * named store function. The list only shrinks: a file that writes SQL again fails the test below.
 */
const SQL_OUTSIDE_STORE: Readonly<Record<string, number>> = {};

/** Not the control plane's tables: creating the cluster's database before any store exists (the server catalogue). */
const SQL_BESIDE_STORE: Readonly<Record<string, number>> = { "src/cloud/cluster.ts": 2 };

test("SQL against the control plane's tables is written only in src/cloud/store/", () => {
  const found: Record<string, number> = {};
  for (const file of walk(join(ROOT, "src/cloud"))) {
    const r = rel(file);
    if (r.startsWith("src/cloud/store/")) continue;
    const n = [...readFileSync(file, "utf8").matchAll(SQL_TEMPLATE)].length;
    if (n > 0 && SQL_BESIDE_STORE[r] !== n) found[r] = n;
  }
  // A file that grew, or one that newly writes SQL, fails here: put the query in a store module and call it.
  expect(found, "SQL outside src/cloud/store/ (none is allowed: the allowlist is empty)").toEqual(SQL_OUTSIDE_STORE);
});
