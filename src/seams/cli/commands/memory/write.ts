// `memnox memory write`: one page, by a person, placed by scope and type.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { MemnoxError } from "../../../../core/errors.ts";
import { opt } from "../../../../memory/format/opt.ts";
import { writeOp } from "../../../../memory/ops.ts";
import { command } from "../../command.ts";
import { common, csv, flag, type MemoryCli, many, number, oneOf, opsDeps, projectArgs, run, say } from "./_cli.ts";

async function bodyOf(cli: MemoryCli, args: Record<string, unknown>): Promise<string> {
  const body = flag(args, "body");
  const file = flag(args, "body-file");
  if (body !== undefined && file !== undefined)
    throw new MemnoxError("refused", "give --body or --body-file, not both");
  if (file === "-") return cli.ctx.io.readAll();
  if (file !== undefined) {
    try {
      return readFileSync(resolve(cli.ctx.cwd, file), "utf8");
    } catch {
      throw new MemnoxError("not_found", `cannot read \`${file}\``);
    }
  }
  if (body === undefined)
    throw new MemnoxError(
      "missing_value",
      "the following arguments are required: --body",
      "or --body-file, `-` for stdin",
    );
  return body;
}

export const writeCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "write", description: "write one page (an existing --slug is updated in place)" },
    args: {
      ...common,
      ...projectArgs,
      type: {
        type: "string",
        description: "entity, preference, procedure, summary, episode, or a declared type",
        required: true,
      },
      title: { type: "string", description: "the page's name; its slug derives from it", required: true },
      body: { type: "string", description: "Markdown body; [[slug]] links become edges" },
      "body-file": { type: "string", description: "read the body from a file (`-` for stdin)" },
      description: { type: "string", description: "one line (at most 512 bytes) saying when the page helps" },
      tags: { type: "string", description: "comma-separated labels" },
      importance: { type: "string", description: "0 to 1 (default 0.5)" },
      links: { type: "string", description: "comma-separated slugs, each optionally `slug:relation`" },
      link: {
        type: "string",
        description: "one typed link `slug[:relation]` (repeatable; relation default relates-to)",
      },
      scope: { type: "string", description: "global (default) or project" },
      slug: { type: "string", description: "update this slug instead of deriving a new one" },
      "valid-from": { type: "string", description: "hidden from recall before this UTC time" },
      "valid-until": { type: "string", description: "hidden from recall from this UTC time" },
      "stale-after": { type: "string", description: "advisory: verify reports it after this time" },
      parent: { type: "string", description: "the parent page's slug" },
      supersedes: { type: "string", description: "comma-separated slugs this page replaces" },
      implements: { type: "string", description: "comma-separated slugs this page realizes" },
      "depends-on": { type: "string", description: "comma-separated slugs this page needs" },
      "session-id": { type: "string", description: "the session the page came from (an episode needs one)" },
      resource: { type: "string", description: "canonical URI of the thing the page is about" },
    },
    run: ({ args, rawArgs }) =>
      run(cli, args, async (store) => {
        const r = await writeOp(opsDeps(cli, store), {
          type: String(args.type),
          title: String(args.title),
          body: await bodyOf(cli, args),
          scope: oneOf(args, "scope", ["global", "project"] as const) ?? "global",
          author: "person",
          tags: csv(rawArgs, "tags"),
          links: [...csv(rawArgs, "links"), ...many(rawArgs, "link")],
          supersedes: csv(rawArgs, "supersedes"),
          implements: csv(rawArgs, "implements"),
          depends_on: csv(rawArgs, "depends-on"),
          ...opt("importance", number(args, "importance")),
          ...opt("description", flag(args, "description")),
          ...opt("session_id", flag(args, "session-id")),
          ...opt("slug", flag(args, "slug")),
          ...opt("valid_from", flag(args, "valid-from")),
          ...opt("valid_until", flag(args, "valid-until")),
          ...opt("stale_after", flag(args, "stale-after")),
          ...opt("parent", flag(args, "parent")),
          ...opt("resource", flag(args, "resource")),
          ...opt("project_id", flag(args, "project-id")),
          ...opt("project_label", flag(args, "project-label")),
          ...opt("project_locator", flag(args, "project-locator")),
        });
        say(cli, args, r, () => [
          `${r.created ? "wrote" : "updated"} ${r.slug} (${r.type}, ${r.scope}${r.status === "active" ? "" : `, ${r.status}`})`,
          `  ${r.file_path}`,
          ...(r.redacted.length ? [`  redacted: ${r.redacted.join(", ")}`] : []),
        ]);
        return 0;
      }),
  });
