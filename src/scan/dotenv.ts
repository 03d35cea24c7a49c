// `.env` files in the repository: the names every framework reads, never the examples that stand in for them.
import { dirname, join } from "node:path";
import { entries, isDir } from "./trail.ts";

const SKIP = new Set(["node_modules", ".git", "vendor", "dist", "build", ".venv", "venv", "target", ".next", ".cache"]);
const EXAMPLE = /\.(example|sample|template|dist|defaults?)$/i;

function isDotEnv(name: string): boolean {
  return (name === ".env" || name.startsWith(".env.")) && !EXAMPLE.test(name);
}

/** Every `.env` file under `root`, four levels deep at most, sorted. */
export function dotEnvFiles(root: string, depth = 4): string[] {
  const out: string[] = [];
  const walk = (dir: string, left: number) => {
    for (const name of entries(dir)) {
      const p = join(dir, name);
      if (isDir(p)) {
        if (left > 0 && !SKIP.has(name)) walk(p, left - 1);
      } else if (isDotEnv(name)) out.push(p);
    }
  };
  walk(root, depth);
  return out.sort();
}

/** The readable substitute a refusal can name, when one sits beside the file. */
export function exampleBeside(path: string): string | undefined {
  const name = entries(dirname(path)).find((n) => n === ".env.example" || n === ".env.sample" || n === ".env.template");
  return name ? join(dirname(path), name) : undefined;
}
