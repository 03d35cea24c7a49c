// The approval page a `memnox login` points at: enter the code, see the hostname the machine reported and how long
// the code holds, approve or refuse. It calls the same /v1/devices routes a script does, with the token typed here.
import type { Call } from "../http.ts";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

const SECURITY = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; form-action 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

export async function devicePage(c: Call): Promise<Response> {
  const code = (c.url.searchParams.get("code") ?? "").slice(0, 16).replace(/[^A-Za-z-]/g, "");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>memnox: approve a machine</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
label{display:block;margin:.8rem 0 .2rem}input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}
button{font:inherit;padding:.5rem 1rem;margin:.8rem .5rem 0 0}#facts{margin-top:1rem;padding:1rem;background:#f3f3f3}
[hidden]{display:none}.muted{color:#555}
</style></head><body>
<h1>Approve a machine</h1>
<p class="muted">A machine ran <code>memnox login</code> and is waiting. Whoever approves it becomes its owner; it then
pulls this workspace's rules and reports what its agents did.</p>
<form id="lookup">
<label for="code">Code shown on the machine</label><input id="code" name="code" autocomplete="off" value="${escapeHtml(code)}" required>
<label for="token">Your memnox token (an admin's)</label><input id="token" name="token" type="password" autocomplete="off" required>
<button type="submit">Look it up</button>
</form>
<section id="facts" hidden>
<p>Hostname it reported: <strong id="hostname"></strong></p>
<p>memnox <span id="version"></span> on <span id="platform"></span>, asking to start in <strong id="mode"></strong></p>
<p>The code is good for <span id="left"></span> more.</p>
<button id="approve" type="button">Approve</button><button id="deny" type="button">Refuse</button>
</section>
<p id="said" role="status"></p>
<script src="/device.js"></script>
</body></html>`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", ...SECURITY } });
}

const SCRIPT = `"use strict";
const $ = (id) => document.getElementById(id);
const say = (t) => { $("said").textContent = t; };
const call = async (method, path) => {
  const r = await fetch(path, { method, headers: { authorization: "Bearer " + $("token").value.trim() } });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error((body.error && body.error.message) || ("HTTP " + r.status));
  return body;
};
const code = () => encodeURIComponent($("code").value.trim().toUpperCase());
$("lookup").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    const d = await call("GET", "/v1/devices/" + code());
    if (d.status !== "pending") { $("facts").hidden = true; say("This code is " + d.status + "."); return; }
    $("hostname").textContent = d.hostname || "(none reported)";
    $("version").textContent = d.version || "?";
    $("platform").textContent = d.platform || "?";
    $("mode").textContent = d.requestedMode;
    $("left").textContent = Math.ceil(d.expiresIn / 60) + " min";
    $("facts").hidden = false; say("");
  } catch (e) { $("facts").hidden = true; say(e.message); }
});
for (const [id, verb] of [["approve", "approve"], ["deny", "deny"]]) {
  $(id).addEventListener("click", async () => {
    try {
      const d = await call("POST", "/v1/devices/" + code() + "/" + verb);
      $("facts").hidden = true;
      say(d.status === "approved" ? "Approved: machine " + d.machineId + ". It finishes logging in on its own." : "Refused.");
    } catch (e) { say(e.message); }
  });
}
`;

export async function deviceScript(): Promise<Response> {
  return new Response(SCRIPT, {
    headers: { "content-type": "text/javascript; charset=utf-8", ...SECURITY, "cache-control": "no-cache" },
  });
}
