import { describe, expect, test } from "bun:test";
import { globMatcher, normalizePath, pathMatcher } from "./pattern.ts";

const HOME = "/home/sam";

describe("globMatcher: `*` is any run of characters, `/` included", () => {
  const cases: [string, string, boolean][] = [
    ["*", "anything at all", true],
    ["mcp.*", "mcp.github.merge_pull_request", true],
    ["mcp.*", "mcpx.github", false],
    ["git.push", "git.push-force", false],
    ["git.push*", "git.push-force", true],
    ["*rm -rf*", "cd /srv && rm -rf /srv/payments/tmp", true],
    ["*rm -rf*", "rm -r x", false],
    ["release/*", "release/2026/11", true],
    ["*.unknown", "aws.unknown", true],
    ["a*b*c", "a/x/b/y/c", true],
    ["a*b*c", "a/x/c", false],
    ["freeze:*", "freeze:payments", true],
    ["a.b", "aXb", false],
  ];
  for (const [p, v, want] of cases) test(`${p} vs ${v}`, () => expect(globMatcher(p)(v)).toBe(want));

  test("case matters for names", () => {
    expect(globMatcher("Deploy")("deploy")).toBe(false);
  });
});

describe("pathMatcher", () => {
  const cases: [string, string, boolean][] = [
    // A slash-free pattern matches a path's basename, or any directory on the way (gitignore-style).
    [".env", "/repo/.env", true],
    [".env", "/repo/app/.env", true],
    [".env", "/repo/.env.example", false],
    [".env.*.local", "/repo/.env.production.local", true],
    ["*.pem", "/repo/certs/server.pem", true],
    [".ssh", "/home/sam/.ssh/id_ed25519", true],
    // Slash-free patterns still match non-path targets whole: command lines and hosts.
    ["*rm -rf*", "rm -rf /srv/payments/tmp", true],
    ["*.github.com", "api.github.com", true],
    ["*.github.com", "github.com.evil.example", false],
    // `~/` is the home passed in at compile time.
    ["~/.aws/credentials", "/home/sam/.aws/credentials", true],
    ["~/.aws/credentials", "/home/other/.aws/credentials", false],
    // Without `**`, `*` crosses `/`: the spec's `/srv/payments*` covers a subdirectory.
    ["/srv/payments*", "/srv/payments", true],
    ["/srv/payments*", "/srv/payments/api", true],
    ["/srv/payments*", "/srv/pay", false],
    // A directory pattern covers everything inside it.
    ["/srv/payments", "/srv/payments/api/src", true],
    ["/srv/payments", "/srv/payments-old", false],
    ["~/.ssh/", "/home/sam/.ssh/id_rsa", true],
    // With `**`, minimatch rules: dot files included, `*` stays within one segment.
    ["**/.ssh/**", "/home/sam/.ssh/id_ed25519", true],
    ["**/.ssh/**", "/srv/backup/.ssh/config", true],
    ["**/.ssh", "/home/sam/.ssh", true],
    ["/repo/**/*.key", "/repo/a/b/c.key", true],
    ["/repo/**/src/*.ts", "/repo/a/src/b/c.ts", false],
    ["/repo/**/src/*.ts", "/repo/a/src/c.ts", true],
    ["/repo/*/x", "/repo/a/b/x", true],
    // A relative pattern with `/` is anchored at any depth.
    ["config/secrets.yml", "/repo/app/config/secrets.yml", true],
    ["config/secrets.yml", "/repo/app/config/secrets.yml.bak", false],
    // Paths compare case-insensitively, so `~/.SSH` on macOS does not slip past `.ssh`.
    ["~/.ssh/**", "/home/sam/.SSH/ID_RSA", true],
    [".env", "/repo/.ENV", true],
    // A spelled-differently path meets the same rule.
    ["~/.ssh/**", "/home/sam/./work/../.ssh/id_rsa", true],
    ["~/.ssh/**", "/home/sam//.ssh/id_rsa", true],
  ];
  for (const [p, v, want] of cases) test(`${p} vs ${v}`, () => expect(pathMatcher(p, HOME)(v)).toBe(want));

  test("`~/` without a home stays literal and matches no absolute path", () => {
    expect(pathMatcher("~/.ssh/**")("/home/sam/.ssh/id_rsa")).toBe(false);
  });
});

describe("a subtree value (`D/**`: everything under D, from a recursive read, copy, chmod or delete)", () => {
  const cases: [string, string, boolean, boolean][] = [
    // pattern, value, a deny or ask reaches it, an allow covers it
    ["~/.ssh/**", "/home/sam/**", true, false],
    ["~/.ssh/id_*", "/home/sam/.ssh/**", true, false],
    ["~/.aws", "/home/sam/.aws/**", true, true],
    ["~/.aws", "/home/sam/.aws/sso/**", true, true],
    ["~/.aws", "/home/sam/projects/**", false, false],
    ["/etc", "/**", true, false],
    // A pattern that can match anywhere reaches a subtree holding the home directory, where such files live.
    ["**/.ssh/**", "/home/**", true, false],
    [".env", "/home/sam/**", true, false],
    [".env", "/work/project/**", false, false],
    // A name given to the recursion (find -name) is matched as it stands.
    [".env", "/work/project/**/.env", true, false],
    ["/work/project/**", "/work/project/dist/**", true, true],
    ["/work/project/**", "/**", true, false],
  ];
  for (const [p, v, reach, cover] of cases) {
    test(`${p} vs ${v}`, () => {
      expect(pathMatcher(p, HOME, "reach")(v)).toBe(reach);
      expect(pathMatcher(p, HOME, "cover")(v)).toBe(cover);
    });
  }
});

test("normalizePath collapses `.`, `..` and doubled slashes", () => {
  expect(normalizePath("/a/./b/../c//d/")).toBe("/a/c/d");
  expect(normalizePath("/a/b")).toBe("/a/b");
  expect(normalizePath("/../a")).toBe("/a");
});
