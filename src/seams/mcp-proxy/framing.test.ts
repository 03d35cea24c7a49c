import { describe, expect, test } from "bun:test";
import { LineSplitter, type Oversize } from "./framing.ts";
import { TopLevelScanner } from "./scanner.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

function split(chunks: string[], max = 1024) {
  const lines: string[] = [];
  const big: Oversize[] = [];
  const s = new LineSplitter(max, { line: (l) => lines.push(dec.decode(l)), oversize: (o) => big.push(o) });
  for (const c of chunks) s.push(enc.encode(c));
  s.end();
  return { lines, big };
}

describe("LineSplitter", () => {
  test("lines across chunk boundaries, several per chunk, CRLF and blank lines", () => {
    const { lines } = split(['{"a":1}\n{"b"', ':2}\r\n\n  \n{"c":3}\n{"d":4}']);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}']);
  });

  test("multi-byte characters split between chunks survive", () => {
    const bytes = enc.encode('{"t":"żółw 🐢"}\n');
    const lines: string[] = [];
    const s = new LineSplitter(1024, { line: (l) => lines.push(dec.decode(l)), oversize: () => {} });
    for (const b of bytes) s.push(new Uint8Array([b]));
    expect(lines).toEqual(['{"t":"żółw 🐢"}']);
  });

  test("a chunk the reader reuses does not change a line still being assembled", () => {
    const lines: string[] = [];
    const s = new LineSplitter(1024, { line: (l) => lines.push(dec.decode(l)), oversize: () => {} });
    const buf = enc.encode('{"a":');
    s.push(buf);
    buf.fill(0x20);
    s.push(enc.encode("1}\n"));
    expect(lines).toEqual(['{"a":1}']);
  });

  test("a line over the limit is reported with its size, id and method, never cut", () => {
    const big = `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"arguments":{"x":"${"y".repeat(5000)}"}}}`;
    const { lines, big: over } = split([big.slice(0, 700), big.slice(700), '\n{"ok":1}\n'], 1024);
    expect(lines).toEqual(['{"ok":1}']);
    expect(over).toEqual([{ bytes: big.length, hasId: true, id: 42, method: "tools/call" }]);
  });

  test("exactly at the limit passes", () => {
    const line = `{"x":"${"a".repeat(1024 - 8)}"}`;
    expect(line.length).toBe(1024);
    expect(split([`${line}\n`], 1024).lines).toEqual([line]);
  });
});

function scan(text: string) {
  const s = new TopLevelScanner();
  for (const ch of enc.encode(text)) s.feed(new Uint8Array([ch]));
  return s.found();
}

describe("TopLevelScanner", () => {
  test("id after a large nested params, and nested ids ignored", () => {
    expect(scan('{"method":"tools/call","params":{"id":"inner","x":[{"id":9}]},"id":"outer"}')).toEqual({
      hasId: true,
      id: "outer",
      method: "tools/call",
    });
  });

  test("numbers, null, escapes and whitespace", () => {
    expect(scan('{ "id" : -3 , "method" : "a\\"b" }')).toEqual({ hasId: true, id: -3, method: 'a"b' });
    expect(scan('{"id":null,"error":{}}')).toEqual({ hasId: true, id: null });
  });

  test("a notification has no id", () => {
    expect(scan('{"method":"notifications/progress","params":{"id":1}}')).toEqual({
      hasId: false,
      method: "notifications/progress",
    });
  });

  test("keys inside strings do not count", () => {
    expect(scan('{"data":"\\"id\\":5","method":"x"}')).toEqual({ hasId: false, method: "x" });
  });

  test("a truncated message yields what was seen", () => {
    expect(scan('{"id":7,"result":{"content":[')).toEqual({ hasId: true, id: 7 });
  });
});
