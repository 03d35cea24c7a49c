// What an authenticated CLI is linked to here: the project, app or context its own files name. Names only.
import { join } from "node:path";
import { isRecord } from "../core/record.ts";
import { gitDir } from "../io/repo.ts";
import type { Locations } from "../wire/clients.ts";
import { entries, isFile, type Trail } from "./trail.ts";

type Linker = (trail: Trail, loc: Locations, repo: string | undefined) => string[];

const line = (text: string | undefined, re: RegExp) => (text ? re.exec(text)?.[1]?.trim() : undefined);
const inRepo = (repo: string | undefined, rel: string, what: string) =>
  repo && isFile(join(repo, rel)) ? [`this repository (${what})`] : [];

function jsonKeys(text: string | undefined, key: string): string[] {
  try {
    const v: unknown = text ? JSON.parse(text) : undefined;
    const o = isRecord(v) ? v[key] : undefined;
    return isRecord(o) ? Object.keys(o) : [];
  } catch {
    return [];
  }
}

const LINKERS: Readonly<Record<string, Linker>> = {
  gh: (trail, _loc, repo) => {
    const dir = repo ? gitDir(repo) : undefined;
    const config = dir ? trail.text(join(dir, "config")) : undefined;
    const urls = [...(config ?? "").matchAll(/^\s*url\s*=\s*(\S*github\.com\S*)/gm)].map((m) =>
      (m[1] ?? "").replace(/^.*github\.com[:/]/, "").replace(/\.git$/, ""),
    );
    return [...new Set(urls)].map((u) => `github.com/${u} (this repository's remote)`);
  },
  git: (trail, _loc, repo) => {
    const dir = repo ? gitDir(repo) : undefined;
    const config = dir ? trail.text(join(dir, "config")) : undefined;
    const remotes = [...(config ?? "").matchAll(/^\[remote "([^"]+)"\]/gm)].map((m) => m[1] ?? "");
    return remotes.map((r) => `remote ${r} of this repository`);
  },
  gcloud: (trail, loc) => {
    const base = loc.env.CLOUDSDK_CONFIG || join(loc.env.XDG_CONFIG_HOME || join(loc.home, ".config"), "gcloud");
    const active = line(trail.text(join(base, "active_config")), /^(.+)$/m) ?? "default";
    const project = line(trail.text(join(base, "configurations", `config_${active}`)), /^\s*project\s*=\s*(.+)$/m);
    return project ? [`project ${project} (configuration ${active})`] : [];
  },
  kubectl: (trail, loc) => {
    const file = loc.env.KUBECONFIG?.split(":")[0] || join(loc.home, ".kube", "config");
    const current = line(trail.text(file), /^current-context:\s*(.+)$/m);
    return current ? [`context ${current.replace(/^["']|["']$/g, "")}`] : [];
  },
  railway: (trail, loc) =>
    jsonKeys(trail.text(join(loc.home, ".railway", "config.json")), "projects").map((p) => `linked in ${p}`),
  vercel: (_t, _l, repo) => inRepo(repo, join(".vercel", "project.json"), ".vercel/project.json"),
  netlify: (_t, _l, repo) => inRepo(repo, join(".netlify", "state.json"), ".netlify/state.json"),
  fly: (trail, _l, repo) => {
    const app = repo ? line(trail.text(join(repo, "fly.toml")), /^\s*app\s*=\s*["']?([^"'\n]+)/m) : undefined;
    return app ? [`app ${app} (this repository's fly.toml)`] : [];
  },
  aws: (_t, loc) => (entries(join(loc.home, ".aws")).includes("config") ? ["profiles in ~/.aws/config"] : []),
};

export function linkedProjects(cli: string, trail: Trail, loc: Locations, repo: string | undefined): string[] {
  return LINKERS[cli]?.(trail, loc, repo) ?? [];
}
