// Every route of the control plane's API, with what it needs and what kind of act it is. A script and the console's
// pages call the same ones; the requirement is checked in roles.ts before any handler runs, so no handler decides who
// may call it, and a body is held to its route's one schema (bodies.ts) before the handler reads it.

import type * as v from "valibot";
import type { Call, Route } from "../http.ts";
import { bodyOf, type Schema } from "../input.ts";
import { changeAgent, haltAgent, liftAgent, listAgents, revokeAgent, showAgent } from "./agents.ts";
import * as B from "./bodies.ts";
import { closeBreakGlass, listBreakGlass, openBreakGlass } from "./breakglass.ts";
import { getBundle } from "./bundle.ts";
import { slashCommand } from "./chat.ts";
import {
  approveCandidate,
  confirmDecision,
  decay,
  drift,
  listCandidates,
  listDecisions,
  listExtractionRuns,
  previewCandidate,
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
import { createGrant, listGrants, reportSpend, revokeGrant, spendByAgent } from "./grants.ts";
import { health } from "./health.ts";
import { HeartbeatSchema, heartbeat } from "./heartbeat.ts";
import { answerHold, listHolds } from "./holds.ts";
import { acknowledgeIncident, containIncident, listIncidents, resolveIncident } from "./incidents.ts";
import { listMachines, revokeMachine, setMode, showMachine } from "./machines.ts";
import { approveMcpServer, blockMcpServer, listMcpServers } from "./mcp.ts";
import { setModel, showModel } from "./model.ts";
import { changeMe, changeOrg, showOrg } from "./org.ts";
import { autonomy, search, summary } from "./overview.ts";
import {
  addMember,
  cancelMember,
  changeMember,
  confirmMember,
  createOperatorToken,
  createToken,
  listAudit,
  listMembers,
  me,
  removeMember,
  revokeOperatorToken,
  revokeToken,
} from "./people.ts";
import { eraseSubject, exportSubject, privacyRegister } from "./privacy.ts";
import {
  approveProposal,
  createProposal,
  listProposals,
  proposeDrop,
  rejectProposal,
  showProposal,
} from "./proposals.ts";
import { listTags, reach, setTag } from "./reach.ts";
import { createSink, listSinks, removeSink } from "./sinks.ts";
import {
  deliverySecret,
  inbound,
  linkAccount,
  listAccounts,
  listSourceEvents,
  listSources,
  reclassify,
  setAgentClearance,
  setClearance,
  setSensitivity,
  setSource,
  showSensitivity,
  sweepSource,
  uploadFile,
} from "./sources.ts";
import { enforceAll, liftState, listState, setState } from "./state.ts";
import { addToTeam, createTeam, listTeams, listWorkspaceGrants, removeFromTeam } from "./teams.ts";

/** A handler whose JSON body is held to `schema` first: the route names the schema, the handler gets its output. */
function withBody<S extends Schema>(
  schema: S,
  handler: (c: Call, body: v.InferOutput<S>) => Promise<Response>,
): Pick<Route, "body" | "handler"> {
  return { body: schema, handler: async (c) => handler(c, await bodyOf(c, schema)) };
}

export const ROUTES: readonly Route[] = [
  { method: "GET", path: "/v1/health", needs: ["public"], handler: health },

  // Enrolment: the machine's two calls are public (it has no credential yet); deciding needs an admin, and an operator
  // token may (it enrols a CI runner unowned).
  { method: "POST", path: "/v1/devices", needs: ["public"], ...withBody(B.DeviceRequest, requestCode) },
  {
    method: "POST",
    path: "/v1/devices/token",
    needs: ["public"],
    body: B.DeviceTokenRequest,
    handler: async (c) => pollToken(c, await formBody(c, B.DeviceTokenRequest)),
  },
  { method: "GET", path: "/v1/devices/:code", needs: ["admin"], handler: showCode },
  {
    method: "POST",
    path: "/v1/devices/:code/approve",
    needs: ["admin"],
    by: "automation",
    handler: (c) => decideCode(c, true),
  },
  {
    method: "POST",
    path: "/v1/devices/:code/deny",
    needs: ["admin"],
    by: "automation",
    handler: (c) => decideCode(c, false),
  },

  // Every connected system delivers here; a signature keyed to this workspace and source is the credential.
  { method: "POST", path: "/v1/inbound/:workspace/:source", needs: ["public"], body: "text", handler: inbound },
  // The team's chat commands, signed as Slack signs them with the workspace's Slack secret; each runs as the member the
  // Slack account is linked to, through this table's own requirement for what it does.
  {
    method: "POST",
    path: "/v1/inbound/:workspace/slack/commands",
    needs: ["public"],
    body: "text",
    handler: (c) => slashCommand(c, ROUTES),
  },

  // What machines call with their own credential.
  { method: "POST", path: "/v1/heartbeat", needs: ["machine"], ...withBody(HeartbeatSchema, heartbeat) },
  { method: "POST", path: "/v1/events", needs: ["machine"], body: "text", handler: postEvents },
  // An agent reports what it spent with its own grant's credential (checked in the handler, like a delivery's).
  { method: "POST", path: "/v1/spend", needs: ["public"], ...withBody(B.SpendBody, reportSpend) },
  { method: "GET", path: "/v1/bundle", needs: ["machine", "viewer"], handler: getBundle },

  // Seeing: every role, and automation.
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
  { method: "GET", path: "/v1/agents/:name/grants", needs: ["viewer"], handler: listGrants },
  { method: "GET", path: "/v1/spend/agents", needs: ["viewer"], handler: spendByAgent },
  { method: "GET", path: "/v1/mcp-servers", needs: ["viewer"], handler: listMcpServers },
  { method: "GET", path: "/v1/events", needs: ["viewer"], handler: listEvents },
  { method: "GET", path: "/v1/events/:id", needs: ["viewer"], handler: showEvent },
  { method: "GET", path: "/v1/incidents", needs: ["viewer"], handler: listIncidents },
  { method: "GET", path: "/v1/state", needs: ["viewer"], handler: listState },
  { method: "GET", path: "/v1/break-glass", needs: ["viewer"], handler: listBreakGlass },
  { method: "GET", path: "/v1/sinks", needs: ["viewer"], handler: listSinks },
  { method: "GET", path: "/v1/privacy/register", needs: ["viewer"], handler: privacyRegister },
  { method: "GET", path: "/v1/holds", needs: ["viewer"], handler: listHolds },
  { method: "GET", path: "/v1/policies/proposals", needs: ["viewer"], handler: listProposals },
  { method: "GET", path: "/v1/policies/proposals/:id", needs: ["viewer"], handler: showProposal },
  { method: "GET", path: "/v1/audit", needs: ["viewer"], handler: listAudit },
  // What the team intended: every answer filtered by the reader's clearance, with a `withheld` count.
  { method: "GET", path: "/v1/source-events", needs: ["viewer"], handler: listSourceEvents },
  { method: "GET", path: "/v1/sources", needs: ["viewer"], handler: listSources },
  { method: "GET", path: "/v1/people/accounts", needs: ["viewer"], handler: listAccounts },
  { method: "GET", path: "/v1/teams", needs: ["viewer"], handler: listTeams },
  { method: "GET", path: "/v1/grants", needs: ["viewer"], handler: listWorkspaceGrants },
  { method: "GET", path: "/v1/candidates", needs: ["viewer"], handler: listCandidates },
  { method: "GET", path: "/v1/candidates/:id/preview", needs: ["viewer"], handler: previewCandidate },
  { method: "GET", path: "/v1/decisions", needs: ["viewer"], handler: listDecisions },
  { method: "GET", path: "/v1/decisions/decay", needs: ["viewer"], handler: decay },
  { method: "GET", path: "/v1/decisions/drift", needs: ["viewer"], handler: drift },
  { method: "GET", path: "/v1/decisions/:id/why", needs: ["viewer"], handler: whyDecision },
  { method: "GET", path: "/v1/reach", needs: ["viewer"], handler: reach },
  { method: "GET", path: "/v1/tags", needs: ["viewer"], handler: listTags },
  { method: "GET", path: "/v1/graph", needs: ["viewer"], handler: showGraph },
  { method: "GET", path: "/v1/events/:id/why", needs: ["viewer"], handler: whyAction },
  // Only the caller's own: their name, their tokens. A token is minted signed in, so a token cannot mint another.
  { method: "PATCH", path: "/v1/me", needs: ["viewer"], ...withBody(B.MeChange, changeMe) },
  { method: "POST", path: "/v1/tokens", needs: ["viewer"], by: "signed-in", ...withBody(B.TokenBody, createToken) },
  { method: "POST", path: "/v1/tokens/:id/revoke", needs: ["viewer"], handler: revokeToken },

  // A person's own acts: answering, approving, rejecting. Signed in, never by a token.
  {
    method: "POST",
    path: "/v1/holds/:id/answer",
    needs: ["reviewer"],
    by: "signed-in",
    ...withBody(B.HoldAnswer, answerHold),
  },
  {
    method: "POST",
    path: "/v1/candidates/:id/approve",
    needs: ["reviewer"],
    by: "signed-in",
    ...withBody(B.CandidateApproval, approveCandidate),
  },
  {
    method: "POST",
    path: "/v1/candidates/:id/reject",
    needs: ["reviewer"],
    by: "signed-in",
    ...withBody(B.CandidateRejection, rejectCandidate),
  },
  { method: "POST", path: "/v1/decisions/:id/confirm", needs: ["reviewer"], by: "signed-in", handler: confirmDecision },

  // Stopping: a reviewer, and automation may (it only ever stops).
  {
    method: "POST",
    path: "/v1/agents/:name/halt",
    needs: ["reviewer"],
    by: "automation",
    ...withBody(B.HaltBody, haltAgent),
  },
  { method: "POST", path: "/v1/agents/:name/lift", needs: ["reviewer"], handler: liftAgent },
  { method: "POST", path: "/v1/incidents/:id/acknowledge", needs: ["reviewer"], handler: acknowledgeIncident },
  {
    method: "POST",
    path: "/v1/incidents/:id/resolve",
    needs: ["reviewer"],
    ...withBody(B.ResolveBody, resolveIncident),
  },

  // Configuring: an admin. A rule set is only ever a proposal until a second admin, signed in, approves it.
  {
    method: "POST",
    path: "/v1/policies/proposals",
    needs: ["admin"],
    by: "automation",
    body: "text",
    handler: createProposal,
  },
  {
    method: "POST",
    path: "/v1/policies/proposals/drop-rule",
    needs: ["admin"],
    by: "automation",
    ...withBody(B.DropRule, proposeDrop),
  },
  {
    method: "POST",
    path: "/v1/policies/proposals/:id/approve",
    needs: ["admin"],
    by: "signed-in",
    handler: approveProposal,
  },
  // Its proposer (any credential of theirs) withdraws it; anybody else rejecting it is signed in (the handler says).
  {
    method: "POST",
    path: "/v1/policies/proposals/:id/reject",
    needs: ["admin"],
    by: "automation",
    handler: rejectProposal,
  },
  { method: "POST", path: "/v1/state", needs: ["admin"], by: "automation", ...withBody(B.StateBody, setState) },
  { method: "POST", path: "/v1/state/:id/lift", needs: ["admin"], handler: liftState },
  // Enforce everywhere: as Contain it does, without an incident; it only tightens, so automation may.
  {
    method: "POST",
    path: "/v1/machines/enforce",
    needs: ["admin"],
    by: "automation",
    ...withBody(B.EnforceBody, enforceAll),
  },
  // Break-glass overrides the conditions in force for a while: a person's act with a reason; closing it only tightens.
  {
    method: "POST",
    path: "/v1/break-glass",
    needs: ["admin"],
    by: "signed-in",
    ...withBody(B.BreakGlassBody, openBreakGlass),
  },
  // A subject's data: reading all of it out, or erasing it, is a person's act.
  {
    method: "POST",
    path: "/v1/privacy/export",
    needs: ["admin"],
    by: "signed-in",
    ...withBody(B.SubjectBody, exportSubject),
  },
  {
    method: "POST",
    path: "/v1/privacy/erasure",
    needs: ["admin"],
    by: "signed-in",
    ...withBody(B.SubjectBody, eraseSubject),
  },
  // A tag on resources is what a person confirmed: reach by tag answers from it.
  { method: "PUT", path: "/v1/tags/:tag", needs: ["admin"], ...withBody(B.TagBody, setTag) },
  // Where the record is forwarded: a webhook's secret is shown once, so signed in; removing one is less oversight.
  { method: "POST", path: "/v1/sinks", needs: ["admin"], by: "signed-in", ...withBody(B.SinkBody, createSink) },
  { method: "POST", path: "/v1/sinks/:id/remove", needs: ["admin"], by: "signed-in", handler: removeSink },
  { method: "POST", path: "/v1/break-glass/:id/close", needs: ["admin"], by: "automation", handler: closeBreakGlass },
  { method: "POST", path: "/v1/machines/:id/mode", needs: ["admin"], ...withBody(B.ModeBody, setMode) },
  { method: "POST", path: "/v1/machines/:id/revoke", needs: ["admin"], by: "automation", handler: revokeMachine },
  { method: "PATCH", path: "/v1/agents/:name", needs: ["admin"], ...withBody(B.AgentChange, changeAgent) },
  { method: "POST", path: "/v1/agents/:name/revoke", needs: ["admin"], by: "automation", handler: revokeAgent },
  // A grant is authority given in somebody's name: minted signed in, its credential shown once; revoking only tightens.
  {
    method: "POST",
    path: "/v1/agents/:name/grants",
    needs: ["admin"],
    by: "signed-in",
    ...withBody(B.GrantBody, createGrant),
  },
  {
    method: "POST",
    path: "/v1/agents/:name/grants/:id/revoke",
    needs: ["admin"],
    by: "automation",
    handler: revokeGrant,
  },
  {
    method: "POST",
    path: "/v1/mcp-servers/:name/approve",
    needs: ["admin"],
    by: "signed-in",
    handler: approveMcpServer,
  },
  { method: "POST", path: "/v1/mcp-servers/:name/block", needs: ["admin"], by: "automation", handler: blockMcpServer },
  {
    method: "POST",
    path: "/v1/incidents/:id/contain",
    needs: ["admin"],
    by: "automation",
    ...withBody(B.ContainBody, containIncident),
  },
  { method: "PATCH", path: "/v1/org", needs: ["admin"], ...withBody(B.OrgChange, changeOrg) },
  // Who is here and with what power: adding somebody and raising a role are signed in, and a role that approves waits
  // on a second admin's confirmation (or a cooling-off); taking power away needs neither.
  { method: "POST", path: "/v1/members", needs: ["admin"], by: "signed-in", ...withBody(B.MemberBody, addMember) },
  { method: "PATCH", path: "/v1/members/:id", needs: ["admin"], ...withBody(B.MemberChange, changeMember) },
  { method: "POST", path: "/v1/members/:id/confirm", needs: ["admin"], by: "signed-in", handler: confirmMember },
  { method: "POST", path: "/v1/members/:id/cancel", needs: ["admin"], handler: cancelMember },
  // Teams: naming one grants nothing; putting somebody on one grants the workspace at its role (signed in, as adding a
  // member is, and a role that approves waits on a second admin); taking them off leaves the grant.
  { method: "POST", path: "/v1/teams", needs: ["admin"], ...withBody(B.TeamBody, createTeam) },
  {
    method: "POST",
    path: "/v1/teams/:id/members",
    needs: ["admin"],
    by: "signed-in",
    body: B.TeamMemberBody,
    handler: async (c) => addToTeam(c, await bodyOf(c, B.TeamMemberBody), ROUTES),
  },
  { method: "POST", path: "/v1/teams/:id/members/:member/remove", needs: ["admin"], handler: removeFromTeam },
  // Removing somebody erases their account's personal data (a receipt says what): a person's act, signed in.
  { method: "POST", path: "/v1/members/:id/remove", needs: ["admin"], by: "signed-in", handler: removeMember },
  {
    method: "POST",
    path: "/v1/operator-tokens",
    needs: ["admin"],
    by: "signed-in",
    ...withBody(B.OperatorTokenBody, createOperatorToken),
  },
  { method: "POST", path: "/v1/operator-tokens/:id/revoke", needs: ["admin"], handler: revokeOperatorToken },
  // Connected systems, documents, need to know and extraction: an admin; a relay uploads documents as automation.
  { method: "PUT", path: "/v1/sources/:type", needs: ["admin"], ...withBody(B.SourceBody, setSource) },
  // The route's own signing secret: a credential, shown signed in.
  { method: "GET", path: "/v1/sources/:type/delivery", needs: ["admin"], by: "signed-in", handler: deliverySecret },
  // A history sweep from a file export: an admin's act, signed in, the body the export's own bytes.
  {
    method: "POST",
    path: "/v1/sources/:type/sweep",
    needs: ["admin"],
    by: "signed-in",
    body: "text",
    handler: sweepSource,
  },
  { method: "POST", path: "/v1/people/accounts", needs: ["admin"], ...withBody(B.AccountLink, linkAccount) },
  { method: "POST", path: "/v1/files", needs: ["admin"], by: "automation", ...withBody(B.FileBody, uploadFile) },
  {
    method: "POST",
    path: "/v1/source-events/:id/classify",
    needs: ["admin"],
    ...withBody(B.Reclassify, reclassify),
  },
  { method: "GET", path: "/v1/sensitivity", needs: ["admin"], handler: showSensitivity },
  { method: "PUT", path: "/v1/sensitivity", needs: ["admin"], ...withBody(B.SensitivityBody, setSensitivity) },
  {
    method: "POST",
    path: "/v1/members/:id/clearance",
    needs: ["admin"],
    ...withBody(B.ClearanceBody, setClearance),
  },
  {
    method: "POST",
    path: "/v1/agents/:name/clearance",
    needs: ["admin"],
    ...withBody(B.AgentClearanceBody, setAgentClearance),
  },
  {
    method: "POST",
    path: "/v1/extraction/runs",
    needs: ["admin"],
    by: "automation",
    ...withBody(B.ExtractionRun, startExtraction),
  },
  { method: "GET", path: "/v1/extraction/runs", needs: ["admin"], handler: listExtractionRuns },
  // Settings → Model: what the deployment offers, and the workspace's choice among it (never a key).
  { method: "GET", path: "/v1/extraction/model", needs: ["viewer"], handler: showModel },
  {
    method: "PUT",
    path: "/v1/extraction/model",
    needs: ["admin"],
    by: "signed-in",
    ...withBody(B.ModelChoice, setModel),
  },
  { method: "POST", path: "/v1/patterns/scan", needs: ["admin"], by: "automation", handler: scanPatterns },
  { method: "POST", path: "/v1/graph/rebuild", needs: ["admin"], by: "automation", handler: rebuild },
  { method: "PATCH", path: "/v1/extraction", needs: ["admin"], ...withBody(B.ExtractionChange, setExtraction) },
];
