// The keeper notices skills too: a skill, subagent, command, plugin or instruction file in the home that is new or
// changed since a person accepted it is a config row and a notice, once per content, until `memnox skills --accept`.
import { findSkills, skillPlaces } from "../../scan/skills.ts";
import { readSkills, skillState, updateSkills } from "../../state/skills.ts";
import type { DaemonPass } from "../passes.ts";

export const skillsPass: DaemonPass = {
  name: "skills",
  watched: (ctx) => skillPlaces(ctx.paths.home, ctx.env),
  minIntervalMs: 30_000,
  async run(pc) {
    const { ctx } = pc;
    const file = readSkills(ctx.paths.skills);
    const fresh = findSkills({ home: ctx.paths.home, env: ctx.env }).filter((i) => {
      const state = skillState(file, i.id, i.hash);
      return state !== "accepted" && file.noticed[i.id] !== i.hash;
    });
    if (fresh.length === 0) return;
    for (const i of fresh) {
      const changed = skillState(file, i.id, i.hash) === "changed";
      pc.recordChange({
        operation: changed ? "skill.changed" : "skill.new",
        file: i.path,
        before: changed ? `${i.agent} ${i.kind} ${i.name} as accepted` : `no ${i.kind} ${i.name}`,
        after: `${i.agent} ${i.kind} ${i.name} (${i.hash.slice(0, 19)})`,
        reason: `${i.agent} runs on a ${changed ? "changed" : "new"} ${i.kind}, ${i.name}, nobody accepted yet`,
      });
    }
    pc.notice(
      "skills",
      `${fresh.length} new or changed skill(s) or instruction file(s) agents run on: memnox skills says which.`,
    );
    updateSkills(ctx.paths.skills, (s) => ({
      ...s,
      noticed: { ...s.noticed, ...Object.fromEntries(fresh.map((i) => [i.id, i.hash])) },
    }));
  },
};
