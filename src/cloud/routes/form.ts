// The token endpoint takes what OAuth clients send (RFC 6749 form encoding) as well as JSON, held to one schema.
import * as v from "valibot";
import type { Call } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { bodyOf, controlIn, refusal, type Schema } from "../input.ts";

export async function formBody<S extends Schema>(c: Call, schema: S): Promise<v.InferOutput<S>> {
  const type = (c.req.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded")) return bodyOf(c, schema);
  const text = await c.req.text();
  const bad = controlIn(text, false);
  if (bad) throw new HttpError(400, "bad_request", `the form holds a control character (${bad})`);
  const r = v.safeParse(schema, Object.fromEntries(new URLSearchParams(text)));
  if (!r.success) throw refusal(r.issues);
  return r.output;
}
