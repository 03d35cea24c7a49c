// The process's stdio knows a terminal from a pipe without node:tty: checked under a real pseudo-terminal (script(1)).
import { expect, test } from "bun:test";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const PROBE = `import { processStdio } from ${JSON.stringify(join(ROOT, "src/adapters/stdio.ts"))};
const s = processStdio();
process.stderr.write(JSON.stringify([s.stdinIsTTY, s.stdoutIsTTY]) + "\\n");`;

async function probe(underTerminal: boolean): Promise<string> {
  const bun = process.execPath;
  const argv = underTerminal
    ? ["script", "-qec", `${bun} -e '${PROBE.replace(/'/g, "'\\''")}' 2>&1`, "/dev/null"]
    : [bun, "-e", PROBE];
  const p = Bun.spawn(argv, { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  p.stdin.end();
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  await p.exited;
  return (out + err).replace(/\r/g, "").trim();
}

test("a pipe is not a terminal", async () => {
  expect(await probe(false)).toBe("[false,false]");
});

test("a pseudo-terminal is one, on stdin and stdout", async () => {
  expect(await probe(true)).toContain("[true,true]");
});
