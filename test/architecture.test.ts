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

  test("in memory, only the MCP server module loads the MCP SDK, and `memnox memory` reaches it lazily", () => {
    for (const file of walk(join(ROOT, "src/memory"))) {
      const sdk = staticImports(file).some((s) => s.startsWith("@modelcontextprotocol/sdk"));
      expect(sdk, `${rel(file)} imports the MCP SDK`).toBe(rel(file) === "src/memory/mcp.ts");
    }
    const { packages } = closure(join(ROOT, "src/seams/cli/commands/memory.ts"));
    expect([...packages].some((p) => p.startsWith("@modelcontextprotocol/sdk"))).toBe(false);
  });
});
