import { describe, expect, test } from "bun:test";
import type { Command, Script, Word } from "./ast.ts";
import { parseLine, parseScript, ShellSyntaxError } from "./parse.ts";
import { literalText } from "./words.ts";

/** Every simple command's literal words, in source order, substitutions and bodies included. */
function commands(script: Script): string[][] {
  const out: string[][] = [];
  const visit = (s: Script) => {
    for (const ao of s) for (const p of ao.pipelines) for (const c of p.commands) cmd(c);
  };
  const word = (w: Word) => {
    for (const p of w.parts) {
      if (p.kind === "cmdsub" || p.kind === "procsub") visit(p.script);
      if (p.kind === "var" || p.kind === "arith") for (const s of p.inner) visit(s);
    }
  };
  const cmd = (c: Command) => {
    if (c.type === "function") return cmd(c.body);
    if (c.type === "compound") {
      for (const b of c.bodies) visit(b);
      for (const w of c.words) word(w);
      return;
    }
    out.push(c.words.map((w) => literalText(w) ?? w.raw));
    for (const w of [...c.assigns, ...c.words, ...c.redirects.map((r) => r.target)]) word(w);
    for (const r of c.redirects) for (const s of r.heredoc?.inner ?? []) visit(s);
  };
  visit(script);
  return out;
}

describe("quoting and escapes", () => {
  const cases: [string, string[][]][] = [
    [`'rm' "-rf" /`, [["rm", "-rf", "/"]]],
    [`r\\m -r\\f /`, [["rm", "-rf", "/"]]],
    [`echo "a b" 'c d' e\\ f`, [["echo", "a b", "c d", "e f"]]],
    [`echo $'a\\tb\\x41\\u00e9'`, [["echo", "a\tbAé"]]],
    [`echo "it's" 'say "hi"'`, [["echo", "it's", 'say "hi"']]],
    [`echo 'hello''world'`, [["echo", "helloworld"]]],
    ["git \\\n  status", [["git", "status"]]],
    [`echo "multi\\\nline"`, [["echo", "multiline"]]],
    [`echo a # rm -rf /`, [["echo", "a"]]],
    [`echo a#b`, [["echo", "a#b"]]],
  ];
  for (const [line, want] of cases) test(line, () => expect(commands(parseScript(line))).toEqual(want));
});

describe("lists, pipelines and compound commands", () => {
  const cases: [string, string[][]][] = [
    ["a && b || c; d & e", [["a"], ["b"], ["c"], ["d"], ["e"]]],
    ["a | b |& c", [["a"], ["b"], ["c"]]],
    ["a\nb\n\nc", [["a"], ["b"], ["c"]]],
    ["(cd /tmp && ls) ; { x; y; }", [["cd", "/tmp"], ["ls"], ["x"], ["y"]]],
    ["if a; then b; elif c; then d; else e; fi", [["a"], ["b"], ["c"], ["d"], ["e"]]],
    ["while a; do b; done; until c; do d; done", [["a"], ["b"], ["c"], ["d"]]],
    ["for f in *.txt; do rm $f; done", [["rm", "$f"]]],
    ["for ((i=0;i<3;i++)); do x; done", [["x"]]],
    ["case $x in a|b) one;; *) two;; esac", [["one"], ["two"]]],
    ["f() { rm -rf /; }; f", [["rm", "-rf", "/"], ["f"]]],
    ["function g { x; }", [["x"]]],
    ["! grep -q x file", [["grep", "-q", "x", "file"]]],
    ["time -p sleep 1", [["sleep", "1"]]],
    ["[[ -f x && $(id) ]]", [["id"]]],
    ["(( $(rm -rf /) + 1 ))", [["rm", "-rf", "/"]]],
  ];
  for (const [line, want] of cases) test(JSON.stringify(line), () => expect(commands(parseScript(line))).toEqual(want));
});

describe("substitutions are parsed, so their commands are seen", () => {
  const cases: [string, string[][]][] = [
    [
      "echo $(git reset --hard)",
      [
        ["echo", "$(git reset --hard)"],
        ["git", "reset", "--hard"],
      ],
    ],
    [
      "echo `rm -rf /`",
      [
        ["echo", "`rm -rf /`"],
        ["rm", "-rf", "/"],
      ],
    ],
    ['echo "$(a "$(b)")"', [["echo", '"$(a "$(b)")"'], ["a", '"$(b)"'], ["b"]]],
    ["diff <(ls) >(wc)", [["diff", "<(ls)", ">(wc)"], ["ls"], ["wc"]]],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
    ["echo ${X:-$(id)}", [["echo", "${X:-$(id)}"], ["id"]]],
    [
      "echo $((1 + $(rm x)))",
      [
        ["echo", "$((1 + $(rm x)))"],
        ["rm", "x"],
      ],
    ],
    [
      "echo $( (git reset --hard) )",
      [
        ["echo", "$( (git reset --hard) )"],
        ["git", "reset", "--hard"],
      ],
    ],
    ["x=$(rm -rf /) true", [["true"], ["rm", "-rf", "/"]]],
  ];
  for (const [line, want] of cases) test(line, () => expect(commands(parseScript(line))).toEqual(want));
});

describe("redirections and heredocs", () => {
  test("redirections are not words, fd numbers are not operands", () => {
    const [c] =
      parseScript("rm -rf 123>/dev/null 2>&1 &>out <in >>log >|clobber <<<word")[0]?.pipelines[0]?.commands ?? [];
    expect(c?.type).toBe("simple");
    if (c?.type !== "simple") return;
    expect(c.words.map((w) => literalText(w))).toEqual(["rm", "-rf"]);
    expect(c.redirects.map((r) => `${r.fd ?? ""}${r.op}${literalText(r.target)}`)).toEqual([
      "123>/dev/null",
      "2>&1",
      "&>out",
      "<in",
      ">>log",
      ">|clobber",
      "<<<word",
    ]);
  });

  test("a heredoc body is data, read after the line; quoting the delimiter keeps it literal", () => {
    const script = parseScript("cat <<EOF\nrm -rf /\nEOF\ncat <<'X' && ls\n$(rm y)\nX\nls");
    expect(commands(script)).toEqual([["cat"], ["cat"], ["ls"], ["ls"]]);
    const first = script[0]?.pipelines[0]?.commands[0];
    expect(first?.type === "simple" && first.redirects[0]?.heredoc?.body).toBe("rm -rf /");
  });

  test("an unquoted heredoc body runs its substitutions", () => {
    expect(commands(parseScript("cat <<EOF\nhello $(rm -rf /)\nEOF"))).toEqual([["cat"], ["rm", "-rf", "/"]]);
  });

  test("<<- strips tabs; a heredoc inside $( ) may end on EOF)", () => {
    const s = parseScript('bash -c "$(cat <<EOF\nrm -rf /\nEOF)"');
    expect(commands(s)).toEqual([["bash", "-c", '"$(cat <<EOF\nrm -rf /\nEOF)"'], ["cat"]]);
    const tabbed = parseScript("cat <<-EOF\n\tbody\n\tEOF\nls");
    expect(commands(tabbed)).toEqual([["cat"], ["ls"]]);
  });

  test("a heredoc never closed runs to the end, as bash reads it", () => {
    expect(commands(parseScript("python3 <<EOF\nprint(1)"))).toEqual([["python3"]]);
  });
});

describe("what cannot be parsed", () => {
  const bad = [
    "echo 'open",
    'echo "open',
    "echo $(open",
    "(a",
    "a )",
    "if a; then b",
    "&& a",
    "| a",
    "echo `open",
    "case x in a) b",
  ];
  for (const line of bad) {
    test(`${JSON.stringify(line)} is a syntax error, and lenient parsing still finds the commands`, () => {
      expect(() => parseScript(line)).toThrow(ShellSyntaxError);
      expect(() => parseScript(line, true)).not.toThrow();
    });
  }

  test("nesting beyond the limit is refused rather than overflowing", () => {
    const deep = `${"$(".repeat(300)}x${")".repeat(300)}`;
    expect(() => parseScript(deep)).toThrow(/nesting is too deep/);
  });
});

describe("the normalised line", () => {
  const cases: [string, string][] = [
    ["  ls  -la  ", "ls -la"],
    [`'rm' "-rf" /`, "rm -rf /"],
    [`echo "hello world"`, "echo 'hello world'"],
    ["r\\m -rf /", "rm -rf /"],
    ["a;b  &&   c", "a; b && c"],
    ["if x\nthen\n  y\nfi", "if x; then y; fi"],
    ["cat <<EOF\nsecret body\nEOF\necho done", "cat <<EOF; echo done"],
    ["echo x # comment", "echo x"],
    ["f() { ls; }", "f() { ls; }"],
    ["echo $(rm   -rf /)", "echo $(rm -rf /)"],
    ["echo `'r'm  -rf x` <(ls  -a)", "echo $(rm -rf x) <(ls -a)"],
    ["git commit -m \"$(cat <<'EOF'\nfix: mention rm -rf /\nEOF\n)\"", "git commit -m $(cat <<EOF)"],
  ];
  for (const [line, want] of cases) test(JSON.stringify(line), () => expect(parseLine(line).normalized).toBe(want));
});
