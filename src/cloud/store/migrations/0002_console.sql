-- The console: people signed in through OpenID Connect (the identity bound to a member on first sign-in, sessions kept
-- as hashes, the login in flight), the organization's profile, rule sets as proposals a second admin approves, the
-- agents and MCP servers the machines report, the agent an action was taken by, and incidents a detector opened.

ALTER TABLE orgs ADD COLUMN about text;
ALTER TABLE orgs ADD COLUMN onboarded_at timestamptz;

-- Bound on the first sign-in: after that only the same issuer and subject sign in as this member.
ALTER TABLE members ADD COLUMN oidc_issuer text;
ALTER TABLE members ADD COLUMN oidc_subject text;
ALTER TABLE members ADD COLUMN display_name text;
ALTER TABLE members ADD COLUMN last_sign_in_at timestamptz;
CREATE UNIQUE INDEX members_identity ON members (org_id, oidc_issuer, oidc_subject) WHERE oidc_subject IS NOT NULL;

CREATE TABLE sessions (
  id text PRIMARY KEY,
  -- sha256 of the cookie's value; the value itself is only ever in the browser's cookie jar.
  hash text NOT NULL UNIQUE,
  member_id text NOT NULL REFERENCES members (id),
  -- Every form carries it; a request whose form does not is refused.
  csrf text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ended_at timestamptz,
  ended_by text
);
CREATE INDEX sessions_member ON sessions (member_id);

-- A sign-in between the redirect to the provider and its return: single use, bound to the browser by a cookie.
CREATE TABLE sign_ins (
  hash text PRIMARY KEY,
  state text NOT NULL,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  return_to text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

-- Which agent took the action, by the name the machine knows it by (the hook's agent or MEMNOX_AGENT_NAME).
ALTER TABLE events ADD COLUMN agent text;
CREATE INDEX events_agent ON events (workspace_id, agent, id);

-- A rule set is a proposal until a second admin approves it; the approval publishes it as the bundle machines pull.
CREATE TABLE proposals (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  -- rules: a whole rule set sent; block-mcp / allow / ask: one rule added to the set in force.
  kind text NOT NULL,
  title text NOT NULL,
  format text NOT NULL CHECK (format IN ('toml', 'yaml', 'json')),
  source text NOT NULL,
  rules_json text NOT NULL,
  rule_count integer NOT NULL,
  -- Against the set in force when it was proposed: names added, removed and modified.
  changes jsonb NOT NULL,
  -- The bundle it was proposed against, so an approval after somebody else's publish is told it is stale.
  base_bundle_id bigint,
  proposed_by text NOT NULL,
  -- Compared by identity, never by name: the member, or the operator token, that sent it.
  proposer_member_id text REFERENCES members (id),
  proposer_token_id text,
  proposed_at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'rejected', 'withdrawn', 'failed')),
  decided_by text,
  decided_at timestamptz,
  failure text,
  bundle_id bigint REFERENCES bundles (id)
);
CREATE INDEX proposals_workspace ON proposals (workspace_id, proposed_at);

-- The agents the workspace knows: from the scans machines send, and from the actions and held calls they report.
CREATE TABLE agents (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  name text NOT NULL,
  kind text,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  -- Named by an admin; until then the owners of the machines it runs on answer for it.
  owners text[],
  owners_set_by text,
  owners_set_at timestamptz,
  principal text,
  halted_at timestamptz,
  halted_by text,
  halt_reason text,
  revoked_at timestamptz,
  revoked_by text,
  PRIMARY KEY (workspace_id, name)
);

CREATE TABLE agent_machines (
  workspace_id text NOT NULL,
  name text NOT NULL,
  machine_id text NOT NULL REFERENCES machines (id),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, name, machine_id),
  FOREIGN KEY (workspace_id, name) REFERENCES agents (workspace_id, name)
);

-- The MCP inventory: one row per server name, and per machine how it is launched (through the proxy or bare).
CREATE TABLE mcp_servers (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  name text NOT NULL,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  approved_by text,
  approved_at timestamptz,
  PRIMARY KEY (workspace_id, name)
);

CREATE TABLE mcp_server_machines (
  workspace_id text NOT NULL,
  name text NOT NULL,
  machine_id text NOT NULL REFERENCES machines (id),
  proxied boolean NOT NULL,
  tools integer,
  write_tools integer,
  agents text[] NOT NULL DEFAULT '{}',
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, name, machine_id),
  FOREIGN KEY (workspace_id, name) REFERENCES mcp_servers (workspace_id, name)
);

-- What the machine last said it has, so an unchanged scan is not sent again.
ALTER TABLE machines ADD COLUMN inventory_hash text;

CREATE TABLE incidents (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  detector text NOT NULL,
  title text NOT NULL,
  agent text,
  session text,
  machine_ids text[] NOT NULL,
  -- The events that opened it (ids in events), in order.
  evidence bigint[] NOT NULL,
  opened_at timestamptz NOT NULL DEFAULT now(),
  acknowledged_by text,
  acknowledged_at timestamptz,
  contained_by text,
  contained_at timestamptz,
  resolved_by text,
  resolved_at timestamptz,
  -- On resolving: was it what the detector said (confirmed) or not (false-alarm); what the detector's precision counts.
  resolution text CHECK (resolution IN ('confirmed', 'false-alarm'))
);
CREATE INDEX incidents_workspace ON incidents (workspace_id, opened_at);
-- One open incident per detector and session: more evidence joins it rather than opening another.
CREATE UNIQUE INDEX incidents_open ON incidents (workspace_id, detector, coalesce(session, ''), coalesce(agent, ''))
  WHERE resolved_at IS NULL;

-- A proposal built from the set in force (block a server, drop a rule) is the JSON document machines write.
ALTER TABLE bundles DROP CONSTRAINT bundles_format_check;
ALTER TABLE bundles ADD CONSTRAINT bundles_format_check CHECK (format IN ('toml', 'yaml', 'json'));
