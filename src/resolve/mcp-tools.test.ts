import { describe, expect, test } from "bun:test";
import { classifyTool, mcpActionName, mcpArguments, toolWords } from "./mcp-tools.ts";

describe("toolWords", () => {
  test.each([
    ["get_file_contents", ["get", "file", "contents"]],
    ["getFileContents", ["get", "file", "contents"]],
    ["create-pull-request", ["create", "pull", "request"]],
    ["HTTPRequest", ["http", "request"]],
    ["s3.deleteObject", ["s", "3", "delete", "object"]],
    ["list_issues_v2", ["list", "issues", "v", "2"]],
  ])("%s", (name, words) => {
    expect(toolWords(name)).toEqual(words);
  });
});

describe("classifyTool by name", () => {
  test.each([
    ["get_file_contents", "read"],
    ["list_issues", "read"],
    ["search_repositories", "read"],
    ["read_text_file", "read"],
    ["echo", "read"],
    ["get_comments", "read"],
    ["get_message", "read"],
    ["get_commit", "read"],
    ["get_workflow_run", "read"],
    ["create_issue", "write"],
    ["update_pull_request", "write"],
    ["get_or_create_user", "write"],
    ["fileWrite", "write"],
    ["toggle-simulated-logging", "write"],
    ["merge_pull_request", "write"],
    ["delete_file", "destructive"],
    ["repo_delete", "destructive"],
    ["push_force", "destructive"],
    ["drop_table", "destructive"],
    ["update_and_delete", "destructive"],
    ["send_message", "communication"],
    ["post_message", "communication"],
    ["add_issue_comment", "communication"],
    ["create_comment", "communication"],
    ["slack_send_dm", "communication"],
    ["publishPackage", "communication"],
    ["execute_sql", "unknown"],
    ["run_command", "unknown"],
    ["frobnicate", "unknown"],
    ["weather", "unknown"],
  ])("%s is %s", (name, cls) => {
    expect(classifyTool(name).class).toBe(cls as never);
  });
});

describe("annotations are a hint that only adds caution", () => {
  test("a read-only claim never lowers what the name says", () => {
    expect(classifyTool("delete_repo", { readOnlyHint: true, destructiveHint: false })).toMatchObject({
      class: "destructive",
      basis: "name",
    });
  });

  test("an admitted destructive hint raises a harmless-sounding name", () => {
    expect(classifyTool("get_report", { readOnlyHint: false, destructiveHint: true })).toMatchObject({
      class: "destructive",
      basis: "annotations",
    });
  });

  test("a read verb the server says is not read-only becomes a write", () => {
    expect(classifyTool("query_and_log", { readOnlyHint: false, destructiveHint: false }).class).toBe("write");
  });

  test("the spec's defaults (destructive unless stated) apply only where the name says nothing", () => {
    expect(classifyTool("frobnicate", {}).class).toBe("destructive");
    expect(classifyTool("frobnicate", { readOnlyHint: false }).class).toBe("destructive");
    expect(classifyTool("frobnicate", { destructiveHint: false })).toEqual({ class: "unknown", basis: "none" });
    expect(classifyTool("create_issue", { title: "x" }).class).toBe("write");
  });

  test("a read-only claim does not make an unknown name read", () => {
    expect(classifyTool("frobnicate", { readOnlyHint: true })).toEqual({ class: "unknown", basis: "none" });
  });

  test("no annotations: unknown stays unknown", () => {
    expect(classifyTool("frobnicate")).toEqual({ class: "unknown", basis: "none" });
  });

  test("non-boolean hints are ignored", () => {
    expect(classifyTool("frobnicate", { readOnlyHint: "yes", destructiveHint: "no" }).class).toBe("destructive");
    expect(classifyTool("get_x", { destructiveHint: "true" }).class).toBe("read");
  });
});

test("mcpActionName", () => {
  expect(mcpActionName("github", "merge_pull_request")).toBe("mcp.github.merge_pull_request");
});

describe("mcpArguments", () => {
  test("nested keys are dotted, arrays become several values, scalars text", () => {
    expect(
      mcpArguments({
        path: "/x",
        options: { recursive: true, depth: 2 },
        tags: ["a", "b"],
        none: null,
        gone: undefined,
      }),
    ).toEqual({
      path: ["/x"],
      "options.recursive": ["true"],
      "options.depth": ["2"],
      tags: ["a", "b"],
      none: ["null"],
    });
  });

  test("anything but an object is no arguments", () => {
    expect(mcpArguments(undefined)).toEqual({});
    expect(mcpArguments("x")).toEqual({});
    expect(mcpArguments([1])).toEqual({});
  });

  test("depth is bounded", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 100; i++) deep = { d: deep };
    const out = mcpArguments(deep);
    expect(Object.values(out).flat()).toEqual(["…"]);
  });
});
