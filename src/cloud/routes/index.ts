// Every route of the control plane's API, with what it needs. A script and the console's pages call the same ones; the
// requirement is checked in roles.ts before any handler runs, so no handler decides who may call it.

import { bodyJson, json, type Route } from "../http.ts";
import { SCHEMA_VERSION } from "../store/migrate.ts";
import { changeAgent, haltAgent, liftAgent, listAgents, revokeAgent, showAgent } from "./agents.ts";
import { getBundle } from "./bundle.ts";
import {
  approveCandidate,
  confirmDecision,
  decay,
  drift,
  listCandidates,
  listDecisions,
  listExtractionRuns,
  reach,
  rebuild,
  rejectCandidate,
  scanPatterns,
  setExtraction,
  showGraph,
  startExtraction,
  whyAction,
  whyDecision,
} from "./decisions.ts";
import { decideCode, pollToken, requestCode, showCode } from "./devices.ts";
import { listEvents, postEvents, showEvent } from "./events.ts";
import { formBody } from "./form.ts";
import { heartbeat } from "./heartbeat.ts";
import { answerHold, listHolds } from "./holds.ts";
import { acknowledgeIncident, containIncident, listIncidents, resolveIncident } from "./incidents.ts";
import { listMachines, revokeMachine, setMode, showMachine } from "./machines.ts";
import { approveMcpServer, blockMcpServer, listMcpServers } from "./mcp.ts";
import { changeMe, changeOrg, showOrg } from "./org.ts";
import { autonomy, search, summary } from "./overview.ts";
import {
  addMember,
  changeMember,
  createOperatorToken,
  createToken,
  listAudit,
  listMembers,
  me,
  revokeOperatorToken,
  revokeToken,
} from "./people.ts";
import {
  approveProposal,
  createProposal,
  listProposals,
  proposeDrop,
  rejectProposal,
  showProposal,
} from "./proposals.ts";
import {
  inbound,
  linkAccount,
  listSourceEvents,
  listSources,
  reclassify,
  setAgentClearance,
  setClearance,
  setSensitivity,
  setSource,
  showSensitivity,
  uploadFile,
} from "./sources.ts";
import { liftState, listState, setState } from "./state.ts";

export const ROUTES: readonly Route[] = [
  {
    method: "GET",
    path: "/v1/health",
    needs: ["public"],
    handler: async () => json({ ok: true, schemaVersion: SCHEMA_VERSION }),
  },

  // Enrolment: the machine's two calls are public (it has no credential yet); deciding needs an admin.
  { method: "POST", path: "/v1/devices", needs: ["public"], handler: async (c) => requestCode(c, await bodyJson(c)) },
  {
    method: "POST",
    path: "/v1/devices/token",
    needs: ["public"],
    handler: async (c) => pollToken(c, await formBody(c)),
  },
  { method: "GET", path: "/v1/devices/:code", needs: ["admin"], handler: showCode },
  { method: "POST", path: "/v1/devices/:code/approve", needs: ["admin"], handler: (c) => decideCode(c, true) },
  { method: "POST", path: "/v1/devices/:code/deny", needs: ["admin"], handler: (c) => decideCode(c, false) },

  // Every connected system delivers here; the deployment's one signature over the body is the credential.
  { method: "POST", path: "/v1/inbound/:workspace/:source", needs: ["public"], handler: inbound },

  // What machines call with their own credential.
  { method: "POST", path: "/v1/heartbeat", needs: ["machine"], handler: async (c) => heartbeat(c, await bodyJson(c)) },
  { method: "POST", path: "/v1/events", needs: ["machine"], handler: postEvents },
  { method: "GET", path: "/v1/bundle", needs: ["machine", "viewer"], handler: getBundle },

  // Seeing: every role.
  { method: "GET", path: "/v1/me", needs: ["viewer"], handler: me },
  { method: "GET", path: "/v1/org", needs: ["viewer"], handler: showOrg },
  { method: "GET", path: "/v1/summary", needs: ["viewer"], handler: summary },
  { method: "GET", path: "/v1/search", needs: ["viewer"], handler: search },
  { method: "GET", path: "/v1/autonomy", needs: ["viewer"], handler: autonomy },
  { method: "GET", path: "/v1/members", needs: ["viewer"], handler: listMembers },
  { method: "GET", path: "/v1/machines", needs: ["viewer"], handler: listMachines },
  { method: "GET", path: "/v1/machines/:id", needs: ["viewer"], handler: showMachine },
  { method: "GET", path: "/v1/agents", needs: ["viewer"], handler: listAgents },
  { method: "GET", path: "/v1/agents/:name", needs: ["viewer"], handler: showAgent },
  { method: "GET", path: "/v1/mcp-servers", needs: ["viewer"], handler: listMcpServers },
  { method: "GET", path: "/v1/events", needs: ["viewer"], handler: listEvents },
  { method: "GET", path: "/v1/events/:id", needs: ["viewer"], handler: showEvent },
  { method: "GET", path: "/v1/incidents", needs: ["viewer"], handler: listIncidents },
  { method: "GET", path: "/v1/state", needs: ["viewer"], handler: listState },
  { method: "GET", path: "/v1/holds", needs: ["viewer"], handler: listHolds },
  { method: "GET", path: "/v1/policies/proposals", needs: ["viewer"], handler: listProposals },
  { method: "GET", path: "/v1/policies/proposals/:id", needs: ["viewer"], handler: showProposal },
  { method: "GET", path: "/v1/audit", needs: ["viewer"], handler: listAudit },
  // What the team intended: every answer filtered by the reader's clearance, with a `withheld` count.
  { method: "GET", path: "/v1/source-events", needs: ["viewer"], handler: listSourceEvents },
  { method: "GET", path: "/v1/sources", needs: ["viewer"], handler: listSources },
  { method: "GET", path: "/v1/candidates", needs: ["viewer"], handler: listCandidates },
  { method: "GET", path: "/v1/decisions", needs: ["viewer"], handler: listDecisions },
  { method: "GET", path: "/v1/decisions/decay", needs: ["viewer"], handler: decay },
  { method: "GET", path: "/v1/decisions/drift", needs: ["viewer"], handler: drift },
  { method: "GET", path: "/v1/decisions/:id/why", needs: ["viewer"], handler: whyDecision },
  { method: "GET", path: "/v1/reach", needs: ["viewer"], handler: reach },
  { method: "GET", path: "/v1/graph", needs: ["viewer"], handler: showGraph },
  { method: "GET", path: "/v1/events/:id/why", needs: ["viewer"], handler: whyAction },
  // Only the caller's own: their name, their tokens.
  { method: "PATCH", path: "/v1/me", needs: ["viewer"], handler: async (c) => changeMe(c, await bodyJson(c)) },
  { method: "POST", path: "/v1/tokens", needs: ["viewer"], handler: async (c) => createToken(c, await bodyJson(c)) },
  { method: "POST", path: "/v1/tokens/:id/revoke", needs: ["viewer"], handler: revokeToken },

  // Approving and stopping: a reviewer.
  {
    method: "POST",
    path: "/v1/holds/:id/answer",
    needs: ["reviewer"],
    handler: async (c) => answerHold(c, await bodyJson(c)),
  },
  {
    method: "POST",
    path: "/v1/agents/:name/halt",
    needs: ["reviewer"],
    handler: async (c) => haltAgent(c, await bodyJson(c)),
  },
  { method: "POST", path: "/v1/agents/:name/lift", needs: ["reviewer"], handler: liftAgent },
  { method: "POST", path: "/v1/incidents/:id/acknowledge", needs: ["reviewer"], handler: acknowledgeIncident },
  {
    method: "POST",
    path: "/v1/incidents/:id/resolve",
    needs: ["reviewer"],
    handler: async (c) => resolveIncident(c, await bodyJson(c)),
  },

  {
    method: "POST",
    path: "/v1/candidates/:id/approve",
    needs: ["reviewer"],
    handler: async (c) => approveCandidate(c, await bodyJson(c)),
  },
  { method: "POST", path: "/v1/decisions/:id/confirm", needs: ["reviewer"], handler: confirmDecision },
  {
    method: "POST",
    path: "/v1/candidates/:id/reject",
    needs: ["reviewer"],
    handler: async (c) => rejectCandidate(c, await bodyJson(c)),
  },

  // Configuring: an admin. A rule set is only ever a proposal until a second admin approves it.
  { method: "POST", path: "/v1/policies/proposals", needs: ["admin"], handler: createProposal },
  {
    method: "POST",
    path: "/v1/policies/proposals/drop-rule",
    needs: ["admin"],
    handler: async (c) => proposeDrop(c, await bodyJson(c)),
  },
  { method: "POST", path: "/v1/policies/proposals/:id/approve", needs: ["admin"], handler: approveProposal },
  { method: "POST", path: "/v1/policies/proposals/:id/reject", needs: ["admin"], handler: rejectProposal },
  { method: "POST", path: "/v1/state", needs: ["admin"], handler: async (c) => setState(c, await bodyJson(c)) },
  { method: "POST", path: "/v1/state/:id/lift", needs: ["admin"], handler: liftState },
  {
    method: "POST",
    path: "/v1/machines/:id/mode",
    needs: ["admin"],
    handler: async (c) => setMode(c, await bodyJson(c)),
  },
  { method: "POST", path: "/v1/machines/:id/revoke", needs: ["admin"], handler: revokeMachine },
  {
    method: "PATCH",
    path: "/v1/agents/:name",
    needs: ["admin"],
    handler: async (c) => changeAgent(c, await bodyJson(c)),
  },
  { method: "POST", path: "/v1/agents/:name/revoke", needs: ["admin"], handler: revokeAgent },
  { method: "POST", path: "/v1/mcp-servers/:name/approve", needs: ["admin"], handler: approveMcpServer },
  { method: "POST", path: "/v1/mcp-servers/:name/block", needs: ["admin"], handler: blockMcpServer },
  {
    method: "POST",
    path: "/v1/incidents/:id/contain",
    needs: ["admin"],
    handler: async (c) => containIncident(c, await bodyJson(c)),
  },
  { method: "PATCH", path: "/v1/org", needs: ["admin"], handler: async (c) => changeOrg(c, await bodyJson(c)) },
  { method: "POST", path: "/v1/members", needs: ["admin"], handler: async (c) => addMember(c, await bodyJson(c)) },
  {
    method: "PATCH",
    path: "/v1/members/:id",
    needs: ["admin"],
    handler: async (c) => changeMember(c, await bodyJson(c)),
  },
  {
    method: "POST",
    path: "/v1/operator-tokens",
    needs: ["admin"],
    handler: async (c) => createOperatorToken(c, await bodyJson(c)),
  },
  { method: "POST", path: "/v1/operator-tokens/:id/revoke", needs: ["admin"], handler: revokeOperatorToken },
  // Connected systems, documents, need to know and extraction: an admin.
  { method: "PUT", path: "/v1/sources/:type", needs: ["admin"], handler: async (c) => setSource(c, await bodyJson(c)) },
  {
    method: "POST",
    path: "/v1/people/accounts",
    needs: ["admin"],
    handler: async (c) => linkAccount(c, await bodyJson(c)),
  },
  { method: "POST", path: "/v1/files", needs: ["admin"], handler: async (c) => uploadFile(c, await bodyJson(c)) },
  {
    method: "POST",
    path: "/v1/source-events/:id/classify",
    needs: ["admin"],
    handler: async (c) => reclassify(c, await bodyJson(c)),
  },
  { method: "GET", path: "/v1/sensitivity", needs: ["admin"], handler: showSensitivity },
  {
    method: "PUT",
    path: "/v1/sensitivity",
    needs: ["admin"],
    handler: async (c) => setSensitivity(c, await bodyJson(c)),
  },
  {
    method: "POST",
    path: "/v1/members/:id/clearance",
    needs: ["admin"],
    handler: async (c) => setClearance(c, await bodyJson(c)),
  },
  {
    method: "POST",
    path: "/v1/agents/:name/clearance",
    needs: ["admin"],
    handler: async (c) => setAgentClearance(c, await bodyJson(c)),
  },
  {
    method: "POST",
    path: "/v1/extraction/runs",
    needs: ["admin"],
    handler: async (c) => startExtraction(c, await bodyJson(c)),
  },
  { method: "GET", path: "/v1/extraction/runs", needs: ["admin"], handler: listExtractionRuns },
  { method: "POST", path: "/v1/patterns/scan", needs: ["admin"], handler: scanPatterns },
  { method: "POST", path: "/v1/graph/rebuild", needs: ["admin"], handler: rebuild },
  {
    method: "PATCH",
    path: "/v1/extraction",
    needs: ["admin"],
    handler: async (c) => setExtraction(c, await bodyJson(c)),
  },
];
