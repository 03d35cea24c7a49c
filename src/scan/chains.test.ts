import { describe, expect, test } from "bun:test";
import { type ChainTool, chainsFor } from "./chains.ts";

const t = (server: string, tool: string, cls: ChainTool["class"] = "read"): ChainTool => ({ server, tool, class: cls });

describe("combined capability", () => {
  test("acquire, package and emit on one subject make one path, across servers", () => {
    const chains = chainsFor("hermes", [
      t("crm", "read_customer"),
      t("crm", "create_customer_export", "write"),
      t("slack", "send_customer_file", "communication"),
    ]);
    expect(chains).toEqual([
      {
        agentId: "hermes",
        subject: "customer",
        consequence: "customer data can leave, in one session",
        steps: [
          { link: "acquire", server: "crm", tool: "read_customer" },
          { link: "package", server: "crm", tool: "create_customer_export" },
          { link: "emit", server: "slack", tool: "send_customer_file" },
        ],
        individuallyHarmless: true,
      },
    ]);
  });

  test("read_customer with send_invoice is two jobs, not a path", () => {
    expect(chainsFor("a", [t("crm", "read_customer"), t("mail", "send_invoice", "communication")])).toEqual([]);
  });

  test("camel humps and separators split names; a substring never counts (`budget` is not `get`)", () => {
    expect(chainsFor("a", [t("s", "budgetCustomer"), t("s", "sendCustomerNote", "communication")])).toEqual([]);
    const camel = chainsFor("a", [t("s", "getCustomers"), t("s", "uploadCustomerList", "communication")]);
    expect(camel.map((c) => c.subject)).toEqual(["customer"]);
  });

  test("no chain is printed when a step destroys on its own: that is counted elsewhere", () => {
    expect(chainsFor("a", [t("s", "read_report"), t("s", "send_report", "destructive")])).toEqual([]);
  });

  test("the package step is optional", () => {
    const c = chainsFor("a", [t("db", "query_orders"), t("web", "post-orders", "communication")]);
    expect(c[0]?.steps.map((s) => s.link)).toEqual(["acquire", "emit"]);
  });
});
