-- The control plane's first schema: an organization and its one workspace, people and their roles, tokens (stored as
-- hashes only), machines enrolled by device code, what machines send, rule bundles, fleet conditions, held calls, and
-- the audit trail every mutation writes.

CREATE TABLE orgs (
  id text PRIMARY KEY,
  name text NOT NULL UNIQUE,
  -- Keys the hostname hash, so a fleet listing cannot be reversed with a list of likely hostnames.
  host_salt text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE workspaces (
  id text PRIMARY KEY,
  org_id text NOT NULL UNIQUE REFERENCES orgs (id),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE members (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'reviewer', 'admin')),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, email)
);

CREATE TABLE machines (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  workspace_id text NOT NULL REFERENCES workspaces (id),
  public_key text NOT NULL,
  hostname_hash text NOT NULL,
  -- The person who approved it; NULL when an operator token approved it as unowned (a CI runner).
  owner_id text REFERENCES members (id),
  approved_by text NOT NULL,
  version text,
  platform text,
  enrolled_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz,
  bundle_applied text,
  mode_set text NOT NULL CHECK (mode_set IN ('off', 'observe', 'advise', 'enforce')),
  mode_running text CHECK (mode_running IN ('off', 'observe', 'advise', 'enforce')),
  stopped_until timestamptz,
  revoked_at timestamptz,
  revoked_by text
);
CREATE INDEX machines_workspace ON machines (workspace_id, enrolled_at);

CREATE TABLE tokens (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  kind text NOT NULL CHECK (kind IN ('person', 'operator', 'machine')),
  -- sha256 of the token; the token itself is shown once and never stored.
  hash text NOT NULL UNIQUE,
  member_id text REFERENCES members (id),
  machine_id text REFERENCES machines (id),
  -- An operator token's role; a person's role is always the member record's.
  role text CHECK (role IN ('viewer', 'reviewer', 'admin')),
  name text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  CHECK ((kind = 'person') = (member_id IS NOT NULL)),
  CHECK ((kind = 'machine') = (machine_id IS NOT NULL)),
  CHECK ((kind = 'operator') = (role IS NOT NULL))
);

CREATE TABLE device_codes (
  id text PRIMARY KEY,
  device_code_hash text NOT NULL UNIQUE,
  user_code text NOT NULL UNIQUE,
  public_key text NOT NULL,
  -- What the machine reported, shown to the approver while the code is pending and cleared once it is decided.
  hostname text,
  version text,
  platform text,
  requested_mode text NOT NULL CHECK (requested_mode IN ('off', 'observe', 'advise', 'enforce')),
  interval_s integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_poll_at timestamptz,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'claimed')),
  org_id text REFERENCES orgs (id),
  decided_by text,
  decided_at timestamptz,
  machine_id text REFERENCES machines (id)
);

-- Exactly the fields of the sync allow-list, and nothing a machine did not choose to send.
CREATE TABLE events (
  id bigserial PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  machine_id text NOT NULL REFERENCES machines (id),
  dedup_key text NOT NULL,
  subject_id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  agent_session_id text,
  surface text NOT NULL,
  operation text NOT NULL,
  classes text[] NOT NULL DEFAULT '{}',
  effect text CHECK (effect IN ('allow', 'ask', 'deny')),
  reason text,
  rule_id text,
  resource_ref text,
  args_digest text,
  exit_code integer,
  started_at timestamptz,
  policy_hash text,
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (machine_id, dedup_key)
);
CREATE INDEX events_workspace ON events (workspace_id, id);

CREATE TABLE bundles (
  id bigserial PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  format text NOT NULL CHECK (format IN ('toml', 'yaml')),
  source text NOT NULL,
  -- The text machines write to org.policies.json: the same document, as JSON.
  rules_json text NOT NULL,
  rule_count integer NOT NULL,
  published_by text NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bundles_workspace ON bundles (workspace_id, id DESC);

CREATE TABLE conditions (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  kind text NOT NULL,
  subject text NOT NULL,
  reason text,
  set_by text NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  lifted_by text,
  lifted_at timestamptz
);
CREATE INDEX conditions_workspace ON conditions (workspace_id, set_at);

CREATE TABLE holds (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  machine_id text NOT NULL REFERENCES machines (id),
  local_id text NOT NULL,
  surface text NOT NULL,
  action text NOT NULL,
  target text,
  agent text,
  session text,
  reason text NOT NULL,
  rule_id text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  reported_at timestamptz NOT NULL DEFAULT now(),
  answer text CHECK (answer IN ('grant', 'deny')),
  scope text CHECK (scope IN ('once', 'session')),
  answered_by text,
  answered_at timestamptz,
  -- The machine said the answer was applied to its hold; it is not sent again after that.
  applied_at timestamptz,
  -- The machine stopped reporting it as waiting (answered at the machine, or expired) before anybody here answered.
  settled_at timestamptz,
  UNIQUE (machine_id, local_id)
);
CREATE INDEX holds_workspace ON holds (workspace_id, reported_at);

CREATE TABLE mode_changes (
  id bigserial PRIMARY KEY,
  machine_id text NOT NULL REFERENCES machines (id),
  from_mode text NOT NULL,
  to_mode text NOT NULL CHECK (to_mode IN ('off', 'observe', 'advise', 'enforce')),
  by text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  -- The machine acknowledged it on a heartbeat: it has applied the change, and it is not carried again.
  delivered_at timestamptz
);
CREATE INDEX mode_changes_machine ON mode_changes (machine_id, id);

CREATE TABLE audit (
  id bigserial PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  at timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL,
  action text NOT NULL,
  subject text,
  detail jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_org ON audit (org_id, id);
