-- The guarantees made hard to forge: power to approve granted only with a second admin's confirmation (or a cooling-off
-- the audit shows), the audit naming refused credentials and how serious each entry is, events refused one by one
-- rather than a batch at a time, incident detection that survives a retry, inbound deliveries remembered so a replay
-- is refused, device codes counted per requester, held calls with their repository, and decisions kept as the rules
-- their approver read.

-- A member given the power to approve (reviewer or admin): pending until another admin confirms it, or, where no other
-- admin exists to confirm it, until its cooling-off ends (and anybody with the admin role may cancel it meanwhile).
CREATE TABLE elevations (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  member_id text NOT NULL REFERENCES members (id),
  from_role text NOT NULL CHECK (from_role IN ('viewer', 'reviewer', 'admin')),
  to_role text NOT NULL CHECK (to_role IN ('reviewer', 'admin')),
  requested_by text NOT NULL,
  requester_member_id text REFERENCES members (id),
  requested_at timestamptz NOT NULL,
  -- Set when nobody else could confirm it: it takes effect then, unless cancelled first.
  cooling_off_until timestamptz,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'cooled', 'cancelled')),
  decided_by text,
  decider_member_id text REFERENCES members (id),
  decided_at timestamptz
);
CREATE UNIQUE INDEX elevations_open ON elevations (member_id) WHERE status = 'pending';
CREATE INDEX elevations_org ON elevations (org_id, requested_at);

-- The grant a member's role came from (the chain the audit names), and when they last stopped being an active admin:
-- a sole admin approves their own rule set only once nobody else has been an admin for the cooling-off.
ALTER TABLE members ADD COLUMN elevation_id text REFERENCES elevations (id);
ALTER TABLE members ADD COLUMN admin_until timestamptz;

-- A refused credential carries no organization we know; every entry says how serious it is.
ALTER TABLE audit ALTER COLUMN org_id DROP NOT NULL;
ALTER TABLE audit ADD COLUMN severity text NOT NULL DEFAULT 'info' CHECK (severity IN ('info', 'warning', 'critical'));
CREATE INDEX audit_unowned ON audit (at) WHERE org_id IS NULL;

-- Rows the detectors have not looked at yet: a batch is stored, then looked at in its workspace's next pass (on any
-- server, or when one starts). Existing rows were looked at when they arrived.
ALTER TABLE events ADD COLUMN detected boolean NOT NULL DEFAULT true;
ALTER TABLE events ALTER COLUMN detected SET DEFAULT false;
CREATE INDEX events_undetected ON events (workspace_id, id) WHERE NOT detected;
-- The newest actions of a workspace, read by what a rule would have caught; a session's, read by the detectors.
CREATE INDEX events_workspace_time ON events (workspace_id, occurred_at DESC);
CREATE INDEX events_session ON events (workspace_id, agent_session_id, occurred_at) WHERE agent_session_id IS NOT NULL;

-- Rows a machine sent that were refused one by one (the rest of their batch stored), and the newest refusal's reason.
ALTER TABLE machines ADD COLUMN refused_events bigint NOT NULL DEFAULT 0;
ALTER TABLE machines ADD COLUMN last_refusal jsonb;
ALTER TABLE machines ADD COLUMN last_refusal_at timestamptz;

-- Where a held call was made: the repository (or directory) the agent stood in.
ALTER TABLE holds ADD COLUMN repository text;

-- Who asked for a code, as a keyed hash of the address: counted, so one requester cannot fill the table.
ALTER TABLE device_codes ADD COLUMN requester text;
CREATE INDEX device_codes_pending ON device_codes (requester, expires_at) WHERE status = 'pending';

-- Each inbound delivery's id, once, across every workspace and source: a replay to any route is refused.
CREATE TABLE inbound_deliveries (
  delivery_id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  source_type text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inbound_deliveries_age ON inbound_deliveries (received_at);

-- The rules a decision compiled to when it was approved, exactly as its approver read them, and the terms chosen; a
-- decision approved before this compiles from its terms.
ALTER TABLE decisions ADD COLUMN rules_json text;
ALTER TABLE decisions ADD COLUMN bound_terms text[];

-- The deployment's own random key: what keys a requester's address before it is stored, the same on every server.
CREATE TABLE deployment (
  id integer PRIMARY KEY CHECK (id = 1),
  address_key text NOT NULL
);
INSERT INTO deployment (id, address_key)
VALUES (1, md5(random()::text || clock_timestamp()::text) || md5(random()::text || clock_timestamp()::text));
