// Every file a scan opens goes through one Trail, so `--json` can list them all; values stay in this process.
import { accessSync, constants, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../io/hash.ts";

/** Enough to tell two files apart, not enough to attack one. */
export function fingerprint(bytes: Uint8Array | string): string {
  return `sha256:${sha256Hex(bytes).slice(0, 12)}`;
}

export class Trail {
  private readonly opened = new Set<string>();

  /** Record a file some other reader (the wire's client reader) opened. */
  note(path: string): void {
    this.opened.add(path);
  }

  /** The file's bytes, or undefined when it is absent, a directory, unreadable, or larger than `max`. */
  bytes(path: string, max = 4 * 1024 * 1024): Uint8Array | undefined {
    try {
      const st = statSync(path);
      if (!st.isFile() || st.size > max) return undefined;
      const b = new Uint8Array(readFileSync(path));
      this.opened.add(path);
      return b;
    } catch {
      return undefined;
    }
  }

  text(path: string, max?: number): string | undefined {
    const b = this.bytes(path, max);
    return b === undefined ? undefined : new TextDecoder().decode(b);
  }

  list(): string[] {
    return [...this.opened].sort();
  }
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

export function isSocket(path: string): boolean {
  try {
    return statSync(path).isSocket();
  } catch {
    return false;
  }
}

/** Readable (or, for a socket, writable) by this process's user. */
export function usable(path: string, socket = false): boolean {
  try {
    accessSync(path, socket ? constants.W_OK : constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** Names in a directory, sorted; none when it is absent. */
export function entries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Files under `dir` (depth-limited), relative names, sorted. */
export function filesUnder(dir: string, depth = 3): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string, left: number) => {
    for (const name of entries(d)) {
      const p = join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      if (isDir(p)) {
        if (left > 0) walk(p, r, left - 1);
      } else out.push(r);
    }
  };
  walk(dir, "", depth);
  return out;
}

/** The first executable named `name` on PATH, without running anything. */
export function onPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? "").split(":")) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      if (statSync(p).isFile()) return p;
    } catch {}
  }
  return undefined;
}
