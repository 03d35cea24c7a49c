// The memory store: pages, index, recall, types, navigation, transcripts, portability, and the hooks' API.

export { rememberDecision } from "./decision.ts";

export { projectFromCwd } from "./format/project.ts";

export { memoryDir } from "./pages/dir.ts";
export { merge } from "./pages/lifecycle.ts";

export { openStore } from "./pages/store.ts";
