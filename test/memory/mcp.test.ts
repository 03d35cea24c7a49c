import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { MemnoxError } from "../../src/core/errors.ts";
import { explicitProject } from "../../src/memory/format/project.ts";
import { createMemoryServer, sanitize } from "../../src/memory/mcp.ts";
import { readPage } from "../../src/memory/pages/store.ts";
import { enableType } from "../../src/memory/types/manage.ts";
import { fakeHome } from "../support/index.ts";
import { type MemStore, memStore, put } from "./helpers.ts";

const ROOT = join(import.meta.dir, "..", "..");
const project = explicitProject("0123456789abcdef01234567", "shop", "shop");
const open: MemStore[] = [];
afterEach(() => {
  for (const m of open.splice(0)) m[Symbol.dispose]();
});

async function connect() {
  const m = memStore();
  open.push(m);
  const server = createMemoryServer({ store: m.store, version: "test", currentProject: async () => project });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(b);
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name: `memex_${name}`, arguments: args })) as {
      content: { text: string }[];
      isError?: boolean;
    };
    return { error: r.isError === true, value: JSON.parse(r.content[0]?.text ?? "null") };
  };
  return { m, client, call };
}

describe("memnox memory serve-mcp", () => {
  test("lists memex's five typed tools; write requires scope; forget offers only reversible modes", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "memex_write",
      "memex_recall",
      "memex_consolidate",
      "memex_forget",
      "memex_provenance",
    ]);
    const write = tools.find((t) => t.name === "memex_write");
    expect(write?.inputSchema.required).toEqual(["type", "title", "body", "scope"]);
    const forget = tools.find((t) => t.name === "memex_forget")?.inputSchema.properties as Record<
      string,
      { enum?: string[] }
    >;
    expect(forget.mode?.enum).toEqual(["soft", "decay", "archive"]);
  });

  test("a write without scope is refused field by field, before anything is saved", async () => {
    const { call, m } = await connect();
    const r = await call("write", { type: "entity", title: "X", body: "y" });
    expect(r).toEqual({ error: true, value: { error: 'scope: Invalid key: Expected "scope" but received undefined' } });
    expect(m.store.hasIndex()).toBe(false);
    expect((await call("forget", { slug: "x", mode: "hard" })).value.error).toMatch(/^mode: /);
  });

  test("a model's project knowledge lands pending in the server's project; an episode is active; recall and provenance answer", async () => {
    const { call, m } = await connect();
    m.store.index();
    put(m.store, { title: "Kafka", body: "We chose Kafka for ordering." });
    const w = await call("write", { type: "preference", title: "Tabs", body: "Tabs not spaces.", scope: "project" });
    expect(w.value).toMatchObject({ slug: "tabs", status: "pending", scope: "project" });
    const r = await call("recall", { query: "kafka ordering" });
    expect(r.value.hits.map((h: { slug: string }) => h.slug)).toEqual(["kafka"]);
    expect((await call("recall", { query: "tabs", scope: "project" })).value.hits).toEqual([]);
    expect((await call("provenance", { slug: "kafka" })).value.confidence).toBe("none");
    expect((await call("forget", { slug: "kafka" })).value).toMatchObject({ forgotten: true, mode: "soft" });
    const task = await call("recall", { query: "goal", questions: ["tabs"] });
    expect(task.value.unanswered_questions).toEqual(["tabs"]);
  });

  test("a domain rejection is {error} data; a schema violation is an error result naming the field", async () => {
    const { call, m } = await connect();
    const undeclared = await call("write", { type: "policy", title: "No PII", body: "x", scope: "project" });
    expect(undeclared).toEqual({
      error: false,
      value: { error: "undeclared type 'policy' for this project; run memex types add or memex types enable" },
    });
    const bounds = await call("recall", { query: "x", top_k: 0 });
    expect(bounds.error).toBe(true);
    expect(bounds.value.error).toMatch(/^top_k: /);
    const unknown = await call("recall", { query: "x", limit: 3 });
    expect([unknown.error, unknown.value.error]).toEqual([true, expect.stringMatching(/^limit: /)]);
    expect(m.store.hasIndex()).toBe(false);
  });

  test("write takes a parent, typed links and relations; its type enum names what this project declared", async () => {
    const { call, client, m } = await connect();
    enableType(m.store, project, "decision", "sam");
    const { tools } = await client.listTools();
    const props = tools.find((t) => t.name === "memex_write")?.inputSchema.properties as Record<
      string,
      { enum?: string[] }
    >;
    expect(props.type?.enum).toEqual(["entity", "preference", "procedure", "summary", "episode", "decision"]);
    await call("write", { type: "entity", title: "Platform", body: "The base.", scope: "global" });
    const w = await call("write", {
      type: "entity",
      title: "Billing",
      body: "Charges.",
      scope: "global",
      parent: "platform",
      links: ["ledger:depends-on", "invoices"],
      supersedes: ["old-billing"],
    });
    const path = String(w.value.file_path);
    expect([w.value.slug, path.endsWith("docs/global/entities/billing.md")]).toEqual(["billing", true]);
    const page = readPage(m.store, path);
    expect(page.parent).toBe("platform");
    expect(page.links).toEqual([
      { target: "ledger", rel: "depends-on" },
      { target: "invoices", rel: "relates-to" },
    ]);
    expect(page.supersedes).toEqual(["old-billing"]);
    const d = await call("write", { type: "decision", title: "We do not log PII", body: "Never.", scope: "project" });
    expect(d.value).toMatchObject({ type: "decision", status: "pending" });
  });

  test("task recall refuses the global scope; consolidate answers with a report or a sanitized reason", async () => {
    const { call } = await connect();
    const global = await call("recall", { query: "goal", questions: ["tabs"], scope: "global" });
    expect(global.value.error).toBe("invalid arguments for this operation: task recall requires active project scope");
    const none = await call("consolidate", { mode: "dry-run" });
    expect(none.value).toMatchObject({ mode: "dry-run", episodes_processed: 0, nodes_created: [], llm_calls: 0 });
    expect((await call("consolidate", { mode: "everything" })).error).toBe(true);
  });

  test("errors carry no paths and no memory text", async () => {
    const { call } = await connect();
    const r = await call("forget", { slug: "missing" });
    expect(r.value.error).toBe("memory node not found: no wiki page for slug: 'missing'");
    expect(
      sanitize(new MemnoxError("refused", "`/home/sam/.memnox/memory/docs/x.md` in the memory store is a symlink")),
    ).toBe("invalid arguments for this operation: a path in the memory store is a symlink");
    expect(sanitize(new Error("ENOENT: /home/sam/secret-project/file"))).toBe("operation failed");
  });

  test("serves over stdio from the real entry point", async () => {
    using home = fakeHome();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, "bin/memnox.ts"), "memory", "serve-mcp"],
      env: home.env({ MEMNOX_ARGV0: "memnox" }),
      cwd: home.home,
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    try {
      const w = (await client.callTool({
        name: "memex_write",
        arguments: { type: "entity", title: "Heron", body: "A bird.", scope: "global" },
      })) as { content: { text: string }[] };
      expect(JSON.parse(w.content[0]?.text ?? "{}")).toMatchObject({ slug: "heron", status: "pending" });
    } finally {
      await client.close();
    }
  });
});
