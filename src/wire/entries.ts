// One server entry added to or taken out of a client's file, in the shape that client's own tools write: what
// `mcp session on|off` and setup use. Run the edits through applyEdits (and rewriteWithBackup to write them).
import { MemnoxError } from "../core/errors.ts";
import { type ClientFile, clientDef, type StdioServer } from "./clients.ts";
import type { Edit } from "./edit/edits.ts";

/** Where server `name` goes: the client's map, or for Claude Code a project's map in ~/.claude.json. */
function serverPath(file: ClientFile, name: string, project?: string): string[] {
  const def = clientDef(file.client);
  if (def.readOnly)
    throw new MemnoxError("refused", `memnox does not edit ${def.label}'s \`${file.path}\``, def.readOnly);
  if (project === undefined) return [...def.key, name];
  if (file.client !== "claude-code" || file.scope !== "user") {
    throw new MemnoxError("internal", `only ~/.claude.json keeps servers per project, not \`${file.path}\``);
  }
  return ["projects", project, ...def.key, name];
}

export function addServerEdits(file: ClientFile, name: string, server: StdioServer, project?: string): Edit[] {
  return [{ op: "set", path: serverPath(file, name, project), value: clientDef(file.client).stdioEntry(server) }];
}

export function removeServerEdits(file: ClientFile, name: string, project?: string): Edit[] {
  return [{ op: "remove", path: serverPath(file, name, project) }];
}
