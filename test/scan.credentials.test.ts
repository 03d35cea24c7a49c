// Credential files read for their shape only: real keys from ssh-keygen, with and without a passphrase.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dotenv, ghHosts, iniSections, kubeconfig, safeSshKey } from "../src/scan/credential-facts.ts";
import { tempDir } from "./support/index.ts";

function keygen(dir: string, name: string, type: string, pass: string): string {
  const path = `${dir}/${name}`;
  const r = Bun.spawnSync(["ssh-keygen", "-q", "-t", type, "-N", pass, "-C", "test", "-f", path], {
    stdout: "pipe",
    stderr: "pipe",
  });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return readFileSync(path, "utf8");
}

describe("ssh keys from the real ssh-keygen", () => {
  test("a key without a passphrase says so; one with a passphrase says so", () => {
    using d = tempDir("memnox-keys");
    expect(safeSshKey(keygen(d.path, "plain", "ed25519", ""))).toEqual({ holds: true, facts: { passphrase: false } });
    expect(safeSshKey(keygen(d.path, "locked", "ed25519", "correct horse"))).toEqual({
      holds: true,
      facts: { passphrase: true },
    });
    expect(safeSshKey(keygen(d.path, "rsa", "rsa", "")).facts.passphrase).toBe(false);
    expect(safeSshKey(readFileSync(`${d.path}/plain.pub`, "utf8")).holds).toBe(false);
  });
});

describe("the other readers return counts and flags, never text from the file", () => {
  test("INI sections that hold a key, gh hosts, kube users, .env variables", () => {
    const aws = iniSections("[a]\naws_access_key_id = X\n[b]\nregion = y\n[c]\naws_secret_access_key=Z\n", /^aws_/);
    expect(aws).toEqual({ holds: true, facts: { sections: 2 } });
    expect(iniSections("[a]\nregion = y\n", /^aws_/).holds).toBe(false);
    expect(ghHosts("github.com:\n    user: x\n    oauth_token: y\nghe.example:\n    user: z\n")).toEqual({
      holds: true,
      facts: { hosts: 2, tokenInFile: true },
    });
    expect(kubeconfig("users:\n- name: a\n  user: {}\n- name: b\ncontexts:\n- name: c\n").facts).toEqual({
      users: 2,
      contexts: 1,
    });
    expect(dotenv("# c\nA=1\nexport B=2\n\nnot a line\n")).toEqual({ holds: true, facts: { variables: 2 } });
  });
});
