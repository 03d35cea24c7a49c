// A package registry on loopback serving `npm pack` tarballs, so `npm install -g memnox@<v>` and the npm upgrade path
// of `memnox update` run the real npm without the internet. Packages it does not have answer 404, as npm expects of
// another platform's optional dependency it cannot fetch.
import { readFileSync } from "node:fs";
import { basename } from "node:path";

export interface Published {
  /** The package.json the tarball was packed from. */
  readonly manifest: { readonly name: string; readonly version: string } & Record<string, unknown>;
  readonly tarball: string;
}

export interface NpmRegistry extends AsyncDisposable {
  readonly url: string;
  publish(p: Published): void;
}

interface Entry extends Published {
  readonly integrity: string;
  readonly shasum: string;
}

export function npmRegistry(): NpmRegistry {
  const packages = new Map<string, Map<string, Entry>>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req): Response {
      const path = decodeURIComponent(new URL(req.url).pathname).slice(1);
      const file = /^-\/tarballs\/(.+)$/.exec(path)?.[1];
      if (file) {
        for (const versions of packages.values())
          for (const p of versions.values()) if (basename(p.tarball) === file) return new Response(Bun.file(p.tarball));
        return new Response("not found", { status: 404 });
      }
      const versions = packages.get(path);
      if (!versions) return Response.json({ error: "not found" }, { status: 404 });
      return Response.json(packument(path, versions, `http://127.0.0.1:${server.port}`));
    },
  });
  const url: string = `http://127.0.0.1:${server.port}`;
  return {
    url,
    publish(p) {
      const versions = packages.get(p.manifest.name) ?? new Map<string, Entry>();
      const bytes = readFileSync(p.tarball);
      const integrity = `sha512-${new Bun.CryptoHasher("sha512").update(bytes).digest("base64")}`;
      const shasum = new Bun.CryptoHasher("sha1").update(bytes).digest("hex");
      versions.set(p.manifest.version, { ...p, integrity, shasum });
      packages.set(p.manifest.name, versions);
    },
    [Symbol.asyncDispose]: async () => {
      await server.stop(true);
    },
  };
}

function packument(name: string, versions: Map<string, Entry>, url: string) {
  const all = [...versions.values()];
  const entries = all.map((p) => {
    const dist = { tarball: `${url}/-/tarballs/${basename(p.tarball)}`, integrity: p.integrity, shasum: p.shasum };
    return [p.manifest.version, { ...p.manifest, _id: `${name}@${p.manifest.version}`, dist }];
  });
  const latest = all.at(-1)?.manifest.version;
  return { name, "dist-tags": latest ? { latest } : {}, versions: Object.fromEntries(entries) };
}
