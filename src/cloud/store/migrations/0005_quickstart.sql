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

-- An agent's grant: the job it holds, the person it acts for, what it may commit alone and until when; its credential
-- is shown once and only its hash is kept. A lost one is replaced by minting another and revoking the first.
CREATE TABLE agent_grants (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  name text NOT NULL,
  role text,
  actions text[] NOT NULL DEFAULT '{}',
  principal_member_id text NOT NULL REFERENCES members (id),
  spend_limit numeric,
  currency text,
  expires_at timestamptz,
  credential_hash text NOT NULL UNIQUE,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  revoked_by text,
  FOREIGN KEY (workspace_id, name) REFERENCES agents (workspace_id, name)
);
CREATE INDEX agent_grants_agent ON agent_grants (workspace_id, name);

-- What an agent reported spending, by its own grant; memnox prices nothing.
CREATE TABLE agent_spend (
  id bigserial PRIMARY KEY,
  workspace_id text NOT NULL,
  name text NOT NULL,
  grant_id text NOT NULL REFERENCES agent_grants (id),
  amount numeric NOT NULL CHECK (amount >= 0),
  currency text NOT NULL,
  action text NOT NULL,
  over_limit boolean NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agent_spend_agent ON agent_spend (workspace_id, name, at);
