// stripe: `stripe <resource> <operation>`; anything that moves money is communication, deletes destroy.
import type { VerbTable } from "../types.ts";
import { help, many, v } from "./entry.ts";

const MONEY = [
  "refunds create",
  "payouts create",
  "transfers create",
  "charges create",
  "charges capture",
  "payment_intents confirm",
  "payment_intents capture",
  "invoices pay",
  "invoices send_invoice",
  "invoices finalize_invoice",
  "credit_notes create",
  "topups create",
];

export const stripe = (): VerbTable => ({
  cli: "stripe",
  description: "Stripe CLI: API resources, raw requests, webhooks",
  valueFlags: ["--api-key", "-d", "--data", "-p", "--project-name", "--stripe-account", "--stripe-version", "-e"],
  verbs: [
    help("stripe"),
    ...many("", "stripe", "write", "login logout config completion"),
    ...many("", "stripe", "read", "listen status version open get"),
    v("logs tail", "stripe.logs-tail", "read"),
    ...many("", "stripe", "communication", "trigger fixtures post"),
    v("delete", "stripe.delete", "destructive"),
    v("serve", "stripe.serve", "unknown"),
    v("samples *", "stripe.samples-{2}", "write"),
    v("events resend", "stripe.events-resend", "communication"),
    v("* list", "stripe.{1}-{2}", "read"),
    v("* retrieve", "stripe.{1}-{2}", "read"),
    v("* search", "stripe.{1}-{2}", "read"),
    v("* create", "stripe.{1}-{2}", "write"),
    v("* update", "stripe.{1}-{2}", "write"),
    v("* delete", "stripe.{1}-{2}", "destructive"),
    v("* cancel", "stripe.{1}-{2}", "destructive"),
    v("invoices void_invoice", "stripe.invoices-void_invoice", "destructive"),
    ...MONEY.map((p) => v(p, `stripe.${p.replace(" ", "-")}`, "communication")),
  ],
});
