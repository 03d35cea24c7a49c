// The package registries an untrusted session's egress proxy lets through without asking (beside its agent's model
// provider, which the run notes as facts): the gate decides on them, the wall's screen names them. Pure.

/** The registries a package manager installs from. */
const REGISTRY_HOSTS: readonly string[] = [
  "registry.npmjs.org",
  "registry.yarnpkg.com",
  "pypi.org",
  "files.pythonhosted.org",
  "crates.io",
  "index.crates.io",
  "static.crates.io",
  "proxy.golang.org",
  "sum.golang.org",
  "rubygems.org",
  "index.rubygems.org",
  "repo.maven.apache.org",
  "repo1.maven.org",
  "api.nuget.org",
  "jsr.io",
];

export function passesThrough(host: string, through: readonly string[]): boolean {
  const h = host.toLowerCase();
  return REGISTRY_HOSTS.includes(h) || through.includes(h);
}
