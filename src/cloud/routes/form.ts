// The token endpoint takes what OAuth clients send (RFC 6749 form encoding) as well as JSON.
import { bodyJson, type Call } from "../http.ts";

export async function formBody(c: Call): Promise<Record<string, unknown>> {
  const type = (c.req.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded")) return bodyJson(c);
  return Object.fromEntries(new URLSearchParams(await c.req.text()));
}
