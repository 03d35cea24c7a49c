// `memnox skills [--accept [name]]`: what agents run on beyond their config (skills, subagents, commands, plugins,
// extensions, instruction files), in the home and this repository; new or changed since accepted is flagged.
import { relative } from "node:path";
import { MemnoxError } from "../../../core/errors.ts";
import { projectConfigFindings } from "../../../gate/agent-config.ts";
import { repoRoot } from "../../../io/repo.ts";
import type { Context } from "../../../ports/context.ts";
import { findSkills, type SkillItem, shortHash } from "../../../scan/skills.ts";
import { personName } from "../../../state/identity.ts";
import { readSkills, skillState, updateSkills } from "../../../state/skills.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { recordState } from "./_state-record.ts";

type Seen = SkillItem & { readonly state: "new" | "changed" | "accepted" };

/** A project's agent configuration that runs around memnox: accepted here like a skill, by its content. */
function configItems(root: string | undefined): SkillItem[] {
  if (!root) return [];
  return projectConfigFindings(root).map((c) => ({
    id: c.id,
    agent: c.agent,
    kind: "config",
    name: relative(root, c.path),
    path: c.path,
    where: "repository",
    hash: c.hash,
  }));
}

function seen(ctx: Context): Seen[] {
  const file = readSkills(ctx.paths.skills);
  const root = repoRoot(ctx.cwd, ctx.env);
  return [...findSkills({ home: ctx.paths.home, env: ctx.env, root }), ...configItems(root)].map((i) => ({
    ...i,
    state: skillState(file, i.id, i.hash),
  }));
}

function line(i: Seen): string {
  const flag = i.state === "accepted" ? " " : "!";
  return `${flag} ${i.state.padEnd(9)} ${i.agent.padEnd(12)} ${i.kind.padEnd(12)} ${i.name}  ${i.path}  ${shortHash(i.hash)}`;
}

export const skills: CommandFactory = (ctx) =>
  command({
    meta: { name: "skills", description: "what agents run on beyond their config; new or changed ones are flagged" },
    args: {
      accept: { type: "boolean", description: "mark what is flagged as reviewed (or only [name])" },
      name: { type: "positional", required: false, description: "with --accept: one item, by name or id" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const items = seen(ctx);
      if (args.accept) {
        const pick = items.filter(
          (i) => i.state !== "accepted" && (args.name === undefined || i.name === args.name || i.id === args.name),
        );
        if (
          args.name !== undefined &&
          pick.length === 0 &&
          !items.some((i) => i.name === args.name || i.id === args.name)
        )
          throw new MemnoxError("not_found", `nothing called \`${args.name}\``, "memnox skills lists them");
        const by = personName(ctx.env);
        const at = new Date(ctx.clock.now()).toISOString();
        updateSkills(ctx.paths.skills, (s) => ({
          ...s,
          accepted: { ...s.accepted, ...Object.fromEntries(pick.map((i) => [i.id, { hash: i.hash, at, by }])) },
        }));
        if (pick.length) recordState(ctx, "memnox.skills-accept", `${by} accepted ${pick.map((i) => i.id).join(", ")}`);
        emit(ctx, args.json, { accepted: pick.map((i) => i.id) }, () =>
          pick.length ? pick.map((i) => `accepted ${i.id}`) : ["nothing flagged to accept"],
        );
        return 0;
      }
      const flagged = items.filter((i) => i.state !== "accepted");
      emit(ctx, args.json, { items, flagged: flagged.length }, () =>
        items.length === 0
          ? ["no skills, subagents, commands, plugins or instruction files found"]
          : [
              ...items.map(line),
              "",
              flagged.length
                ? `${flagged.length} new or changed since accepted: read them, then memnox skills --accept [name]`
                : "everything here was accepted as it is",
            ],
      );
      return 0;
    },
  });
