// Rule file text to plain data plus a line finder; TOML by smol-toml, YAML by `yaml`, loaded only when a YAML file is read.
import { parse as parseToml, TomlError } from "smol-toml";
import { type KeyPath, tomlLines } from "../../io/toml-lines.ts";
import type { RuleProblem } from "./types.ts";

export interface ParsedText {
  readonly data: unknown;
  /** 1-based line of the deepest part of `path` found in the text. */
  line(path: KeyPath): number | undefined;
}

type ParseResult =
  | { readonly ok: true; readonly parsed: ParsedText }
  | { readonly ok: false; readonly problem: RuleProblem };

export function isYamlPath(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

// The hook hot path must not pay for the YAML library unless a YAML rule file exists.
function yamlLib(): typeof import("yaml") {
  return require("yaml");
}

export function parseRuleText(file: string, text: string): ParseResult {
  if (file.endsWith(".json")) return parseJsonText(file, text);
  return isYamlPath(file) ? parseYaml(file, text) : parseTomlText(file, text);
}

/** The workspace's rules arrive as the same document in JSON (`org.policies.json`): no lines to point at. */
function parseJsonText(file: string, text: string): ParseResult {
  try {
    return { ok: true, parsed: { data: JSON.parse(text), line: () => undefined } };
  } catch (e) {
    return { ok: false, problem: { file, message: `not valid JSON: ${(e as Error).message}` } };
  }
}

function parseTomlText(file: string, text: string): ParseResult {
  try {
    const data = parseToml(text);
    return { ok: true, parsed: { data, line: tomlLines(text) } };
  } catch (e) {
    const firstLine = (e instanceof Error ? e.message : String(e)).split("\n")[0] ?? "";
    const message = `not valid TOML: ${firstLine.replace(/^Invalid TOML document:\s*/, "")}`;
    const line = e instanceof TomlError ? e.line : undefined;
    return { ok: false, problem: { file, message, ...(line ? { line } : {}) } };
  }
}

function parseYaml(file: string, text: string): ParseResult {
  const Y = yamlLib();
  const lineCounter = new Y.LineCounter();
  const doc = Y.parseDocument(text, { lineCounter, prettyErrors: false });
  const [err] = doc.errors;
  if (err) {
    const line = err.linePos?.[0]?.line ?? lineCounter.linePos(err.pos[0]).line;
    return { ok: false, problem: { file, line, message: `not valid YAML: ${err.message.split("\n")[0] ?? ""}` } };
  }
  const lineAt = (offset: number | undefined) => (offset === undefined ? undefined : lineCounter.linePos(offset).line);
  const line = (path: KeyPath): number | undefined => {
    for (let n = path.length; n > 0; n--) {
      const parent = n === 1 ? doc.contents : doc.getIn(path.slice(0, n - 1), true);
      const last = path[n - 1];
      if (Y.isMap(parent)) {
        const pair = parent.items.find((p) => Y.isScalar(p.key) && p.key.value === last);
        if (pair && Y.isScalar(pair.key)) return lineAt(pair.key.range?.[0]);
      } else if (Y.isSeq(parent) && typeof last === "number") {
        const item = parent.items[last];
        if (Y.isNode(item)) return lineAt(item.range?.[0]);
      }
    }
    return undefined;
  };
  return { ok: true, parsed: { data: doc.toJS(), line } };
}
