// What a request may carry, checked at the edge before any handler or query sees it: one valibot schema per route body,
// and every text without control characters (a NUL breaks PostgreSQL, a newline forges a log line, a bidi override
// makes one name read as another). A refusal is a 400 naming the field. Free text a person or a machine wrote goes
// through the one masker on its way in, so no credential is stored even where the sender forgot to mask it.
import * as v from "valibot";
import { maskSecrets } from "../core/secrets.ts";
import { bodyJson, type Call } from "./http.ts";
import { HttpError } from "./http-error.ts";
import { CONTROL, LINE_CONTROL } from "./protocol/text.ts";

/** The first control character's code point in `text` (U+0000 as `U+0000`), or undefined when it has none. */
export function controlIn(text: string, multiline: boolean): string | undefined {
  const m = CONTROL.exec(text) ?? (multiline ? null : LINE_CONTROL.exec(text));
  if (!m) return undefined;
  return `U+${(m[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

const clean = (multiline: boolean) =>
  v.check<string, v.ErrorMessage<v.CheckIssue<string>>>(
    (s) => controlIn(s, multiline) === undefined,
    (issue) => `holds a control character (${controlIn(String(issue.input), multiline)}), which is refused`,
  );

/** A name, a reason, a title: one line, masked. */
export const line = (max: number) =>
  v.pipe(v.string(), v.minLength(1, "must be non-empty text"), v.maxLength(max), clean(false), v.transform(mask));

/** A one-line text that may be empty (a resource, a reason a machine recorded), masked. */
export const text = (max: number) => v.pipe(v.string(), v.maxLength(max), clean(false), v.transform(mask));

/** Free text over several lines (a note, a document, what the team does), masked; may be empty. */
export const prose = (max: number) => v.pipe(v.string(), v.maxLength(max), clean(true), v.transform(mask));

/** An identifier or a code (an id, a hash, a key): one line, never altered, optionally of a shape. */
export const ident = (max: number, shape?: RegExp, what = "is not of the expected shape") =>
  v.pipe(
    v.string(),
    v.minLength(1, "must be non-empty text"),
    v.maxLength(max),
    clean(false),
    v.check((s) => shape === undefined || shape.test(s), what),
  );

export const email = v.pipe(
  ident(320, /^[^@\s]+@[^@\s]+$/, "is not an address"),
  v.transform((s) => s.toLowerCase()),
);

/** An ISO-8601 instant. */
export const instant = v.pipe(
  ident(64),
  v.check((s) => !Number.isNaN(Date.parse(s)), "is not an ISO-8601 instant"),
);

/** A whole number in a range: what PostgreSQL's integer columns hold. */
export const whole = (min = 0, max = 2_147_483_647) =>
  v.pipe(v.number(), v.integer("must be a whole number"), v.minValue(min), v.maxValue(max));

/** A list of non-empty one-line texts, each once. */
export const lines = (max: number, each = 200) =>
  v.pipe(
    v.array(line(each)),
    v.maxLength(max),
    v.transform((xs) => [...new Set(xs)]),
  );

function mask(s: string): string {
  return maskSecrets(s);
}

/** `a.b.3.c` of the first issue, as a field name. */
export function fieldOf(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((p) => String(p.key)).join(".");
}

/** The 400 a schema's first issue is: it names the field and says what is wrong with it. */
export function refusal(
  issues: readonly [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]],
  what = "the body",
): HttpError {
  const issue = issues[0];
  const field = fieldOf(issue);
  const message = issue.message.startsWith("Invalid key")
    ? "is not a field this takes"
    : issue.message.replace(/^Invalid (\w+): Expected (\S+) but received (\S+)$/, "must be $2 (got $3)");
  return new HttpError(400, "bad_request", field ? `\`${field}\` ${message}` : `${what} ${message}`, {
    field: field || null,
  });
}

export type Schema = v.GenericSchema<unknown, unknown>;

/** The body read as JSON and held to `schema`: its typed output, or the 400 naming the first field that does not hold. */
export async function bodyOf<S extends Schema>(c: Call, schema: S): Promise<v.InferOutput<S>> {
  const raw = await bodyJson(c);
  const r = v.safeParse(schema, raw);
  if (!r.success) throw refusal(r.issues);
  return r.output;
}

/** Path parameters and the query, every one: a control character or an overlong value is a 400 naming it. */
export function checkRequestText(params: Readonly<Record<string, string>>, url: URL): void {
  for (const [k, val] of Object.entries(params)) {
    const bad = controlIn(val, false);
    if (bad)
      throw new HttpError(400, "bad_request", `\`:${k}\` holds a control character (${bad})`, { field: `:${k}` });
    if (val.length > 512) throw new HttpError(400, "bad_request", `\`:${k}\` is too long`, { field: `:${k}` });
  }
  for (const [k, val] of url.searchParams) {
    const bad = controlIn(k, false) ?? controlIn(val, false);
    if (bad)
      throw new HttpError(400, "bad_request", `\`?${k}\` holds a control character (${bad})`, { field: `?${k}` });
    if (val.length > 2048) throw new HttpError(400, "bad_request", `\`?${k}\` is too long`, { field: `?${k}` });
  }
}

/** The first text inside a parsed JSON value (its keys too) holding a control character: its path and which. */
export function controlInValue(value: unknown, path = ""): { path: string; char: string } | undefined {
  if (typeof value === "string") {
    const char = controlIn(value, true);
    return char ? { path: path || "(the value)", char } : undefined;
  }
  if (Array.isArray(value)) {
    for (const [i, x] of value.entries()) {
      const found = controlInValue(x, path ? `${path}.${i}` : String(i));
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object")
    for (const [k, x] of Object.entries(value)) {
      const here = path ? `${path}.${k}` : k;
      const char = controlIn(k, false);
      if (char) return { path: here, char };
      const found = controlInValue(x, here);
      if (found) return found;
    }
  return undefined;
}

/** A query parameter as a positive whole number that PostgreSQL's bigint holds, else `fallback`. */
export function cursorParam(raw: string | null | undefined, fallback = 0): number {
  if (!raw || !/^\d{1,15}$/.test(raw)) return fallback;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
}
