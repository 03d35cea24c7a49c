// kubectl: the verb table, except that a Secret printed with its values is a read of a secret store.
import type { Call } from "../call.ts";
import { tableOf } from "../tables/index.ts";
import { kubectl as kubectlTable } from "../tables/kubectl.ts";
import { scan } from "../tables/match.ts";
import { emitNamed, runTable } from "./table.ts";

/** Output formats that print a Secret's data (base64 is not a secret's protection); `name` and `wide` do not. */
const PRINTS_DATA = /^(json|ya?ml|jsonpath|jsonpath-as-json|go-template|go-template-file|custom-columns|template)\b/i;

/** `secret`, `secrets/db`, `secret.v1`, `configmap,secret`: the resource list names Secrets. */
function namesSecrets(resource: string | undefined): boolean {
  return (resource ?? "")
    .split(",")
    .some((r) => /^secrets?(\.v1)?(\/|$)/i.test(r.trim()) || /^(sec|secret)\//i.test(r.trim()));
}

/** Every `-o` / `--output` value as given: `-o yaml`, `-oyaml`, `-o=json`, `--output=jsonpath={…}`. */
function outputs(words: readonly string[]): string[] {
  const out: string[] = [];
  words.forEach((w, i) => {
    if (w === "-o" || w === "--output") out.push(words[i + 1] ?? "");
    else if (w.startsWith("--output=")) out.push(w.slice("--output=".length));
    else if (/^-o./.test(w)) out.push(w.slice(2).replace(/^=/, ""));
  });
  return out;
}

/**
 * `kubectl get secret x -o yaml` prints its values; `kubectl describe secret x` prints its annotations, where
 * `kubectl apply` left the whole object (values too) as last-applied-configuration.
 */
export function kubectl(call: Call): void {
  const table = tableOf(kubectlTable);
  const args = call.args.slice(1);
  const s = scan(args, table.valueFlags);
  const [verb, resource, ...rest] = s.positional.map((a) => a.text);
  const output = outputs(args.map((a) => a.text));
  const template = s.flags.has("--template");
  const secrets = namesSecrets(resource) || (verb === "get" && /^secrets?\//i.test(rest[0] ?? ""));
  const targets = [resource ?? "", ...rest];
  if (verb === "get" && secrets && (template || output.some((o) => PRINTS_DATA.test(o))))
    emitNamed(table, call, "kubectl.get-secret", targets);
  else if (verb === "describe" && secrets) emitNamed(table, call, "kubectl.describe-secret", targets);
  else runTable(table, call, args);
}
