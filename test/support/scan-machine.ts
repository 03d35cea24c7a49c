// A whole machine for the scan, composed from fixtures/homes/scan/<part>/: every agent's own config formats,
// credential files holding canary values, the proxy's tool manifests, and a repository a Ruflo swarm runs in.
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { fixtureTree } from "./fixtures.ts";
import type { Tree } from "./fs.ts";
import { type GitRepo, gitRepo } from "./git.ts";
import { type FakeHome, fakeHome } from "./home.ts";

export const AGENT_PARTS = [
  "claude-code",
  "claude-desktop",
  "cursor",
  "codex",
  "gemini-cli",
  "windsurf",
  "cline",
  "vscode",
  "zed",
  "hermes",
  "openclaw",
] as const;

/** Every canary value in the fixtures carries this; none may ever be printed, kept or logged. */
export const CANARY = "CANARY";

export function scanTree(parts: readonly string[]): Tree {
  return Object.assign({}, ...parts.map((p) => fixtureTree("homes", "scan", p)));
}

/** A home holding `parts` (default: every agent, the credentials and the tool cache). */
export function scanHome(parts: readonly string[] = [...AGENT_PARTS, "credentials", "tool-cache"]): FakeHome {
  return fakeHome(scanTree(parts));
}

/** The repository, its `.env` files kept as `_env*` in fixtures so this repository holds no `.env` of its own. */
export function rufloRepo(): GitRepo {
  const tree = fixtureTree("homes", "scan", "ruflo-repo");
  return gitRepo(Object.fromEntries(Object.entries(tree).map(([k, v]) => [k.replace(/(^|\/)_env/, "$1.env"), v])));
}

/** A real unix socket standing in for Docker's, listening until disposed. */
/** A socket that answers the daemon protocol's `ping` and nothing else. */
export async function fakeSocket(path: string): Promise<Server & AsyncDisposable> {
  const server = createServer((c) => {
    let buf = "";
    c.on("data", (d) => {
      buf += d.toString();
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        const req = JSON.parse(buf.slice(0, nl)) as { id: number; method: string };
        buf = buf.slice(nl + 1);
        const answered = { evaluate: 0, local: 0, record: 0, hold: 0 };
        c.write(`${JSON.stringify({ id: req.id, ok: true, pid: 1, version: "test", startedAt: "", answered })}\n`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return Object.assign(server, {
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

export function dockerHost(home: FakeHome): string {
  return join(home.home, "docker.sock");
}
