// Every route of the control plane, with what it needs. A script and (later) the console's pages call the same ones;
// the requirement is checked in roles.ts before any handler runs, so no handler decides who may call it.

import { bodyJson, json, type Route } from "../http.ts";
import { devicePage, deviceScript } from "../pages/device.ts";
import { SCHEMA_VERSION } from "../store/migrate.ts";
import { getBundle, putBundle } from "./bundle.ts";
import { decideCode, pollToken, requestCode, showCode } from "./devices.ts";
import { listEvents, postEvents } from "./events.ts";
import { formBody } from "./form.ts";
import { heartbeat } from "./heartbeat.ts";
import { answerHold, listHolds } from "./holds.ts";
import { listMachines, revokeMachine, setMode, showMachine } from "./machines.ts";
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
import { liftState, listState, setState } from "./state.ts";

export const ROUTES: readonly Route[] = [
  {
    method: "GET",
    path: "/v1/health",
    needs: ["public"],
    handler: async () => json({ ok: true, schemaVersion: SCHEMA_VERSION }),
  },
  { method: "GET", path: "/device", needs: ["public"], handler: devicePage },
  { method: "GET", path: "/device.js", needs: ["public"], handler: deviceScript },

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

  // What machines call with their own credential.
  { method: "POST", path: "/v1/heartbeat", needs: ["machine"], handler: async (c) => heartbeat(c, await bodyJson(c)) },
  { method: "POST", path: "/v1/events", needs: ["machine"], handler: postEvents },
  { method: "GET", path: "/v1/bundle", needs: ["machine", "viewer"], handler: getBundle },

  // Seeing: every role.
  { method: "GET", path: "/v1/me", needs: ["viewer"], handler: me },
  { method: "GET", path: "/v1/members", needs: ["viewer"], handler: listMembers },
  { method: "GET", path: "/v1/machines", needs: ["viewer"], handler: listMachines },
  { method: "GET", path: "/v1/machines/:id", needs: ["viewer"], handler: showMachine },
  { method: "GET", path: "/v1/events", needs: ["viewer"], handler: listEvents },
  { method: "GET", path: "/v1/state", needs: ["viewer"], handler: listState },
  { method: "GET", path: "/v1/holds", needs: ["viewer"], handler: listHolds },
  { method: "GET", path: "/v1/audit", needs: ["viewer"], handler: listAudit },
  { method: "POST", path: "/v1/tokens", needs: ["viewer"], handler: async (c) => createToken(c, await bodyJson(c)) },
  { method: "POST", path: "/v1/tokens/:id/revoke", needs: ["viewer"], handler: revokeToken },

  // Answering held calls: a reviewer.
  {
    method: "POST",
    path: "/v1/holds/:id/answer",
    needs: ["reviewer"],
    handler: async (c) => answerHold(c, await bodyJson(c)),
  },

  // Configuring: an admin.
  { method: "PUT", path: "/v1/bundle", needs: ["admin"], handler: putBundle },
  { method: "POST", path: "/v1/state", needs: ["admin"], handler: async (c) => setState(c, await bodyJson(c)) },
  { method: "POST", path: "/v1/state/:id/lift", needs: ["admin"], handler: liftState },
  {
    method: "POST",
    path: "/v1/machines/:id/mode",
    needs: ["admin"],
    handler: async (c) => setMode(c, await bodyJson(c)),
  },
  { method: "POST", path: "/v1/machines/:id/revoke", needs: ["admin"], handler: revokeMachine },
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
];
