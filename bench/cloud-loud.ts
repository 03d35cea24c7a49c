// The noisy neighbour's loud tenant, in a process of its own so its work never slows the measuring one: every machine's
// looping agent sends batches of refusals in its one session, as fast as it is let, waiting what a 429's Retry-After
// says (memnox's own sync waits longer: it backs off for minutes). Reads `{urls, machines}` as JSON on stdin, runs
// until SIGTERM, and prints what it stored and how often it was told to wait as one JSON line.
import { type SentEvent, SIGNATURE_HEADER } from "../src/cloud/protocol/sync.ts";
import { signWith } from "../src/ledger/sign.ts";

interface Loud {
  readonly urls: string[];
  readonly machines: { id: string; token: string; secret: string }[];
}

const loud = JSON.parse(await Bun.stdin.text()) as Loud;
const tally = { accepted: 0, limited: 0, other: 0 };
let stopping = false;
process.on("SIGTERM", () => {
  stopping = true;
});
// Never outlive the bench that started it, whatever happened to that one.
setTimeout(() => {
  stopping = true;
}, 180_000).unref();

let n = 0;
async function worker(w: number): Promise<void> {
  const m = loud.machines[w % loud.machines.length];
  if (!m) return;
  const secret = Buffer.from(m.secret, "base64");
  while (!stopping) {
    const round = n++;
    const events: SentEvent[] = Array.from({ length: Number(process.env.LOUD_ROWS ?? 200) }, (_, i) => ({
      dedupKey: `evt_loud_${round}_${i}`,
      subjectId: `evt_loud_${round}_${i}`,
      occurredAt: new Date().toISOString(),
      agentSessionId: `loop-${w % loud.machines.length}`,
      agent: "looping-agent",
      surface: "hook",
      operation: "git.push-force",
      classes: ["destructive"],
      effect: "deny",
      resourceRef: "origin main",
    }));
    const body = JSON.stringify({ machineId: m.id, sentAt: new Date().toISOString(), events });
    const r = await fetch(`${loud.urls[round % loud.urls.length]}/v1/events`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${m.token}`,
        "content-type": "application/json",
        [SIGNATURE_HEADER]: signWith(secret, new TextEncoder().encode(body)),
      },
      body,
    }).catch(() => undefined);
    const text = (await r?.text()) ?? "";
    if (r?.status === 200) tally.accepted += (JSON.parse(text) as { accepted: number }).accepted;
    else if (r?.status === 429) {
      tally.limited += 1;
      await Bun.sleep(Number(r.headers.get("retry-after") ?? 1) * 1000);
    } else {
      tally.other += 1;
      await Bun.sleep(100);
    }
  }
}

await Promise.all(Array.from({ length: 32 }, (_, w) => worker(w)));
process.stdout.write(`${JSON.stringify(tally)}\n`);
