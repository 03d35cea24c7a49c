#!/usr/bin/env node
// The `memnox` command of the npm package: runs the binary from this machine's @memnox/<target> package.
"use strict";
const { spawnSync } = require("node:child_process");
const { readFileSync } = require("node:fs");
const { dirname, join } = require("node:path");

const SCOPE = "@memnox";
const own = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8"));

function fail(message) {
  process.stderr.write(`memnox: ${message}\n`);
  process.exit(1);
}

function isMusl() {
  try {
    process.report.excludeNetwork = true;
    return !process.report.getReport().header.glibcVersionRuntime;
  } catch {
    return false;
  }
}

// The plain Linux x64 builds need AVX2; without it the -baseline build runs (every Mac memnox supports has it).
function hasAvx2() {
  try {
    return /^flags\s*:.*\bavx2\b/m.test(readFileSync("/proc/cpuinfo", "utf8"));
  } catch {
    return false;
  }
}

function packageName() {
  const { platform, arch } = process;
  if ((platform !== "linux" && platform !== "darwin") || (arch !== "x64" && arch !== "arm64"))
    fail(`there is no memnox build for ${platform}/${arch}; memnox runs on Linux and macOS, x64 and arm64`);
  const libc = platform === "linux" && isMusl() ? "-musl" : "";
  const baseline = platform === "linux" && arch === "x64" && !hasAvx2() ? "-baseline" : "";
  return `${SCOPE}/${platform}-${arch}${baseline}${libc}`;
}

function findBinary() {
  const name = packageName();
  let manifest;
  try {
    manifest = require.resolve(`${name}/package.json`);
  } catch {
    return fail(missing(name));
  }
  const version = JSON.parse(readFileSync(manifest, "utf8")).version;
  if (version !== own.version)
    fail(`${name} is ${version} but memnox is ${own.version}; reinstall both: npm install memnox@${own.version}`);
  return join(dirname(manifest), "bin", "memnox");
}

function missing(name) {
  const why = name.includes("-baseline")
    ? `this processor has no AVX2, so memnox needs ${name}, which npm does not install by itself`
    : `npm did not install ${name}, the package that carries memnox for this machine (an install with --omit=optional, or a lockfile made on another platform, skips it)`;
  return `${why}; install it beside memnox: npm install ${name}@${own.version} memnox@${own.version}`;
}

const binary = findBinary();
const child = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (child.error) fail(`could not start ${binary}: ${child.error.message}`);
if (child.signal) process.kill(process.pid, child.signal);
process.exitCode = child.status ?? 1;
