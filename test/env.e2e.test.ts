// `memnox env`: the environment `memnox run` gives an agent, in the three forms something else starts one with.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { startDaemon } from "./support/daemon.ts";
import { fakeHome, runBinary } from "./support/index.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

test("sh: sourced by a real bash, it gives the interceptors first on PATH, the governed shell and the proxy", async () => {
  const r = await runBinary("memnox", ["env", "--format", "sh", "--agent", "nightly"], { env: home.env() });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("no daemon answers, so nothing listens at 127.0.0.1:8888 yet");
  const shown = Bun.spawnSync(
    [
      "bash",
      "-c",
      `${r.stdout}\nprintf '%s\\n' "$PATH" "$SHELL" "$http_proxy" "$HTTPS_PROXY" "$NODE_USE_ENV_PROXY" "$MEMNOX_AGENT_NAME"`,
    ],
    { env: home.env() },
  );
  const [path, shell, lower, upper, node, agent] = shown.stdout.toString().trim().split("\n");
  expect(path?.startsWith(`${join(home.memnoxHome, "bin")}:`)).toBe(true);
  expect(shell).toBe(join(home.memnoxHome, "bin", "memnox-bash"));
  expect(existsSync(shell ?? "")).toBe(true);
  expect([lower, upper, node, agent]).toEqual(["http://127.0.0.1:8888", "http://127.0.0.1:8888", "1", "nightly"]);
});

test("with a daemon running, the proxy variables name where its proxy actually listens", async () => {
  await using d = await startDaemon(home);
  const port = (await d.ping())?.egress?.port;
  const r = await runBinary("memnox", ["env", "--json"], { env: home.env() });
  expect(r.stderr).toBe("");
  const vars = JSON.parse(r.stdout);
  expect(vars).toMatchObject({ HTTP_PROXY: `http://127.0.0.1:${port}`, ALL_PROXY: `http://127.0.0.1:${port}` });
  expect(vars.MEMNOX_SESSION).toBeUndefined();
});

test("systemd and docker: quoted for what reads them, `%` and `$` kept literal", async () => {
  const odd = join(home.home, "odd dir %h $HOME");
  mkdirSync(odd, { recursive: true });
  const e = home.env({ MEMNOX_HOME: odd });
  const unit = (await runBinary("memnox", ["env", "--format", "systemd"], { env: e })).stdout.split("\n");
  expect(unit).toContain(`Environment="MEMNOX_HOME=${odd.replace("%", "%%")}"`);
  expect(unit).toContain("Environment=NODE_USE_ENV_PROXY=1");
  const docker = (await runBinary("memnox", ["env", "--format", "docker"], { env: e })).stdout.split("\n");
  expect(docker).toContain(`ENV MEMNOX_HOME="${odd.replace("$", "\\$")}"`);
  expect(docker).toContain('ENV HTTPS_PROXY="http://127.0.0.1:8888"');
  const bad = await runBinary("memnox", ["env", "--format", "fish"], { env: e });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("unknown format `fish`");
});
