-- Issue 33, second part: break-glass, sinks and the model a workspace extracts with.

-- An admin's override: the conditions in force it suspends, why, until when, and the incident it opened.
CREATE TABLE break_glass (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  reason text NOT NULL,
  actions text[] NOT NULL DEFAULT '{}',
  suspends text[] NOT NULL,
  opened_by text NOT NULL,
  opened_at timestamptz NOT NULL DEFAULT now(),
  ends_at timestamptz NOT NULL,
  closed_by text,
  closed_at timestamptz,
  incident_id text NOT NULL REFERENCES incidents (id)
);
CREATE INDEX break_glass_workspace ON break_glass (workspace_id, ends_at);

-- Where what was caught is forwarded: a webhook signed with a secret derived from the deployment's and the sink's id
-- (shown once, stored nowhere), or a syslog collector. Health is counted here; no payload is kept.
CREATE TABLE sinks (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  kind text NOT NULL CHECK (kind IN ('webhook', 'syslog')),
  target text NOT NULL,
  verdicts text[] NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  removed_at timestamptz,
  delivered bigint NOT NULL DEFAULT 0,
  failed bigint NOT NULL DEFAULT 0,
  last_delivery_at timestamptz,
  last_error text
);
CREATE INDEX sinks_workspace ON sinks (workspace_id);

-- The deployment's model preset a workspace chose; never a key (the one credential is the deployment's).
ALTER TABLE workspaces ADD COLUMN model text;
ALTER TABLE workspaces ADD COLUMN model_reasoning text;

-- A refused credential read's computed counterfactual, as the machine's gate wrote it from its last scan.
ALTER TABLE events ADD COLUMN would_reach text;

-- Tags a person confirmed on resources (a glob over what actions name: a host, a path, an ARN), asked of by reach.
CREATE TABLE resource_tags (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  tag text NOT NULL,
  pattern text NOT NULL,
  confirmed_by text NOT NULL,
  confirmed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, tag, pattern)
);
