-- Issue 33: what a person following the team quickstart meets in the console.

-- Each connected system's health, per workspace: when it last delivered, how many deliveries landed and how many were
-- refused, and why the last one was. Counted on the inbound route; nothing of a delivery's content is kept here.
CREATE TABLE source_health (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  source_type text NOT NULL,
  last_delivery_at timestamptz,
  delivered bigint NOT NULL DEFAULT 0,
  refused bigint NOT NULL DEFAULT 0,
  last_refusal text,
  last_refusal_at timestamptz,
  PRIMARY KEY (workspace_id, source_type)
);

-- A GitHub App delivery carries no timestamp to bound a replay by: its id is kept for as long as GitHub redelivers.
ALTER TABLE inbound_deliveries ADD COLUMN keep_until timestamptz;

-- Removing somebody erases the account: its row stays (what they approved points at it) with nothing personal left.
ALTER TABLE members DROP CONSTRAINT members_status_check;
ALTER TABLE members ADD CONSTRAINT members_status_check CHECK (status IN ('active', 'suspended', 'removed'));
ALTER TABLE members ADD COLUMN removed_at timestamptz;
