import { describe, expect, test } from "bun:test";
import { lastSession, overLimit, selectMilestone } from "./select.ts";
import type { Milestone, MilestoneKind } from "./types.ts";

let t = 1_000_000;
function m(id: string, kind: MilestoneKind = "manual", session?: string): Milestone {
  t -= 1000;
  return {
    id,
    ref: `refs/memnox/milestones/${id}`,
    tree: "t",
    takenAt: new Date(t).toISOString(),
    takenAtMs: t,
    files: 1,
    kind,
    reason: "r",
    worktree: "/w",
    ...(session ? { session } : {}),
  };
}

// Newest first, as readMilestones returns them.
const list = [
  m("mst_undo0001", "rewind", "s2"),
  m("mst_destroy1", "destroy", "s2"),
  m("mst_first002", "first-write", "s2"),
  m("mst_hand0001", "manual"),
  m("mst_first001", "first-write", "s1"),
  m("mst_run00001", "run", "s1"),
];

describe("selectMilestone", () => {
  test("latest is the newest, whatever kept it", () => {
    expect(selectMilestone(list, { kind: "latest" }, "/w").id).toBe("mst_undo0001");
  });
  test("an id, or a unique prefix with or without mst_", () => {
    expect(selectMilestone(list, { kind: "id", id: "mst_hand0001" }, "/w").id).toBe("mst_hand0001");
    expect(selectMilestone(list, { kind: "id", id: "hand" }, "/w").id).toBe("mst_hand0001");
    expect(() => selectMilestone(list, { kind: "id", id: "first" }, "/w")).toThrow(/names 2 milestones/);
    expect(() => selectMilestone(list, { kind: "id", id: "mst_zz" }, "/w")).toThrow(/no milestone `mst_zz`/);
  });
  test("a session means its oldest milestone, never a rewind's own", () => {
    expect(selectMilestone(list, { kind: "session", session: "s1" }, "/w").id).toBe("mst_run00001");
    expect(selectMilestone(list, { kind: "session", session: "s2" }, "/w").id).toBe("mst_first002");
    expect(() => selectMilestone(list, { kind: "session", session: "s9" }, "/w")).toThrow(/session `s9`/);
  });
  test("the last session is the newest one kept for a session", () => {
    expect(lastSession(list)).toBe("s2");
    expect(selectMilestone(list, { kind: "last-session" }, "/w").id).toBe("mst_first002");
    expect(() => lastSession([m("mst_hand0002")])).toThrow(/no milestone here was kept for a session/);
  });
  test("none at all names the directory and how to keep one", () => {
    expect(() => selectMilestone([], { kind: "latest" }, "/w")).toThrow(/no milestones kept in `\/w`/);
  });
});

describe("overLimit", () => {
  const many = Array.from({ length: 20 }, (_, i) => m(`mst_n${String(i).padStart(7, "0")}`));
  test("adding one to twenty drops the oldest", () => {
    expect(overLimit(many, 20, 1).map((x) => x.id)).toEqual([many[19]?.id ?? ""]);
  });
  test("a spared milestone survives and the next-oldest goes instead", () => {
    const spare = many[19];
    expect(overLimit(many, 20, 1, spare).map((x) => x.id)).toEqual([many[18]?.id ?? ""]);
  });
  test("under the limit drops nothing", () => expect(overLimit(many.slice(0, 5), 20, 1)).toEqual([]));
});
