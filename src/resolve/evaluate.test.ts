// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not templates
// Shell expansions that run code: every place bash evaluates text a second time either resolves what it runs or
// says the line is `shell.dynamic`; the arithmetic of the ordinary loop stays quiet.
import { describe, expect, test } from "bun:test";
import { resolveCommand } from "./index.ts";

const CTX = { cwd: "/repo", home: "/home/me" };
const names = (line: string) => resolveCommand(line, CTX).actions.map((a) => a.name);

/** The payload each line hides, which the resolver must find as `git.push-force` (or the line be unseen). */
const RUNS: readonly string[] = [
  // arithmetic over a value whose subscript holds a substitution
  "x='a[$(git push -f origin main)]'; echo $((x))",
  "x='a[$(git push -f origin main)]'; echo $(( $x + 1 ))",
  "x='a[$(git push -f origin main)]'; (( x ))",
  "x='a[$(git push -f origin main)]'; echo $[x]",
  "x='a[$(git push -f origin main)]'; [[ $x -eq 0 ]]",
  "x='a[$(git push -f origin main)]'; for ((i=x; i<1; i++)); do :; done",
  "x='a[$(git push -f origin main)]'; b=(1 2); echo ${b[x]}",
  "x='a[$(git push -f origin main)]'; b=(1 2); echo ${b[@]:x}",
  "x='a[$(git push -f origin main)]'; declare -i n; n=x",
  "x='a[$(git push -f origin main)]'; declare -i n=x",
  "x='a[$(git push -f origin main)]'; echo ${!x}",
  // names handed to builtins, quoted so the parser never sees the substitution
  "printf -v 'a[$(git push -f origin main)]' x",
  "declare 'a[$(git push -f origin main)]=1'",
  "typeset 'a[$(git push -f origin main)]=1'",
  "f() { local 'a[$(git push -f origin main)]=1'; }; f",
  "read 'a[$(git push -f origin main)]' <<< x",
  "read -a 'a[$(git push -f origin main)]' <<< x",
  "mapfile -t 'a[$(git push -f origin main)]' < /dev/null",
  "a=(1); unset 'a[$(git push -f origin main)]'",
  "test -v 'a[$(git push -f origin main)]'",
  "[ -v 'a[$(git push -f origin main)]' ]",
  "let 'a[$(git push -f origin main)]=1'",
  "getopts ab 'a[$(git push -f origin main)]'",
  "wait -p 'a[$(git push -f origin main)]'",
  "declare -n r='a[$(git push -f origin main)]'; echo $r",
  // prompt strings, callbacks and arrays
  "x='$(git push -f origin main)'; echo ${x@P}",
  "x='`git push -f origin main`'; echo \"${x@P}\"",
  "PS4='$(git push -f origin main)'; set -x; ls",
  "mapfile -C 'git push -f origin main' -c 1 arr < /dev/null",
  "a=($(git push -f origin main))",
  "declare -a a=($(git push -f origin main))",
  'local a=("$(git push -f origin main)")',
  "a+=(`git push -f origin main`)",
  "a=(['$(git push -f origin main)']=1)",
  "echo $[ a[$(git push -f origin main)] ]",
  "x='a[$(git push -f origin main)]'\ncat <<EOF\n$((x))\nEOF",
];

/** Data the line computed at run time, evaluated as code: nobody can read it first. */
const UNSEEN: readonly string[] = [
  "n=$(cat pay); echo $((n+1))",
  "read n < pay; [[ $n -gt 0 ]]",
  "read n < pay; a=(1 2); echo ${a[$n]}",
  "read n < pay; a=(1 2); echo ${a[n]}",
  "read n < pay; a=(); a[$n]=1",
  'read n < pay; printf -v "$n" x',
  "read n < pay; x=(1); echo ${x[@]:n}",
  "read n < pay; (( n ))",
  "read n < pay; let n",
  "read n < pay; for ((i=0;i<n;i++)); do :; done",
  "read n < pay; echo ${!n}",
  "read n < pay; [[ -v $n ]]",
  "echo $(( $(cat pay) ))",
  "for v in $(cat list); do echo $((v)); done",
  "x=$(cat pay); echo ${x@P}",
];

/** The ordinary loop's arithmetic: numbers, counters and its own variables. */
const QUIET: readonly string[] = [
  "for i in 1 2 3; do echo $((i*2)); done",
  "for i in $(seq 1 5); do echo $((i+1)); done",
  "n=$(wc -l < README.md); echo $((n+1))",
  "n=$(git ls-files | wc -l); echo $((n*2))",
  "echo $(( $(date +%s) - 5 ))",
  "count=$(git rev-list --count HEAD); echo $((count))",
  "total=0; for f in *.ts; do total=$((total+1)); done; echo $total",
  "arr=(a b c); echo ${arr[1]} ${#arr[@]} ${arr[@]:1:2}",
  "declare -A m=([k]=v); echo ${m[k]}",
  "x=5; if [[ $x -gt 3 ]]; then echo big; fi",
  '[ "$x" -eq 5 ] && echo ok',
  "let i=i+1",
  "PS1='\\u@\\h:\\w\\$ '",
  'read -r line < README.md; echo "$line"',
  'while read -r f; do echo "$f"; done < list.txt',
  "files=($(git ls-files)); echo ${#files[@]}",
  "echo $((RANDOM % 10)) $(($# + 1))",
  'printf -v pad "%05d" 42; echo "$pad"',
  "declare -i n=5; n=n+1",
  "unset arr; unset -f f",
];

describe("what bash evaluates a second time is resolved", () => {
  for (const line of RUNS) test(JSON.stringify(line), () => expect(names(line)).toContain("git.push-force"));
});

describe("data computed at run time and evaluated as code is shell.dynamic", () => {
  for (const line of UNSEEN) test(JSON.stringify(line), () => expect(names(line)).toContain("shell.dynamic"));
});

describe("the loop's own arithmetic stays quiet", () => {
  for (const line of QUIET)
    test(JSON.stringify(line), () => {
      const got = names(line);
      expect(got).not.toContain("shell.dynamic");
      expect(got).not.toContain("shell.unknown");
    });
});

test("in a script the project declares, its data evaluated is deferred to the interceptors", () => {
  const project = { repository: "/repo", files: { "/repo/s.sh": "read n < in.txt\necho $((n+1))\n" } };
  const r = resolveCommand("./s.sh", { ...CTX, project });
  expect(r.actions.map((a) => a.name)).toContain("shell.deferred");
  expect(r.actions.map((a) => a.name)).not.toContain("shell.dynamic");
});

test("`hash -p` makes a later name run that path", () => {
  const got = names("hash -p /tmp/evil git; git status");
  expect(got).toContain("evil.run");
  expect(got).not.toContain("git.status");
});

test("`enable -f` loads code from a shared object", () => {
  expect(names("enable -f /tmp/x.so foo")).toContain("shell.script");
});
