// What an edit of a config file is, apart from document.ts (which applies them) so the format editors can name it.
import type { JsonValue } from "./jsonc.ts";

export type EditableFormat = "json" | "json5" | "toml";

export type Edit =
  | { readonly op: "set"; readonly path: readonly string[]; readonly value: JsonValue }
  | { readonly op: "remove"; readonly path: readonly string[] }
  /** JSON only: one item at the end of the list at `path` (the list is made when absent). */
  | { readonly op: "append"; readonly path: readonly string[]; readonly value: JsonValue }
  /** JSON only: the item at `index` of the list at `path`. */
  | { readonly op: "removeItem"; readonly path: readonly string[]; readonly index: number };
