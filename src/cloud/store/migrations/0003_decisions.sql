-- What the team intended: the systems that deliver source events and the streams chosen of them, the accounts known to
-- be a person's, files uploaded, the source events themselves (taint and classification fixed at arrival), sensitivity
-- rules and clearances, extraction runs, the review queue, decisions with their approvers and versions, the team graph,
-- and the lineage a chain detector joins actions across machines by.

-- How far extraction reads: the team's own record by default; raising it sends confidential material to a model.
ALTER TABLE workspaces ADD COLUMN extraction_reads_up_to text NOT NULL DEFAULT 'internal'
  CHECK (extraction_reads_up_to IN ('public', 'internal', 'confidential'));

-- A connected system: the base URL a permalink is composed from when it ships none, and the streams chosen.
CREATE TABLE sources (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  source_type text NOT NULL,
  base_url text,
  streams text[] NOT NULL DEFAULT '{}',
  set_by text NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, source_type)
);

-- Accounts on connected systems known to be a member's. Email is the only evidence strong enough to merge on.
CREATE TABLE person_accounts (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  source_type text NOT NULL,
  account text NOT NULL,
  member_id text NOT NULL REFERENCES members (id),
  email text NOT NULL,
  -- 'reported': the system reported this address for the account; 'admin': an admin attached it by the member's address.
  evidence text NOT NULL CHECK (evidence IN ('reported', 'admin')),
  linked_by text NOT NULL,
  linked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, source_type, account)
);

CREATE TABLE files (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  name text NOT NULL,
  sha256 text NOT NULL,
  bytes integer NOT NULL,
  -- An admin said it is the team's own; otherwise a document is third-party, tainted whoever forwarded it.
  own boolean NOT NULL,
  sections integer NOT NULL,
  uploaded_by text NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX files_workspace ON files (workspace_id, uploaded_at);

-- Every event that arrived, in one shape. Taint and classification are facts about the moment it landed.
CREATE TABLE source_events (
  id bigserial PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  dedup_key text NOT NULL,
  source_type text NOT NULL,
  -- A node with nowhere to point back to is not stored.
  source_ref text NOT NULL CHECK (source_ref ~ '^https?://'),
  kind text NOT NULL,
  stream text,
  author text,
  author_trusted boolean NOT NULL,
  member_id text REFERENCES members (id),
  content text NOT NULL,
  occurred_at timestamptz NOT NULL,
  tainted boolean NOT NULL,
  taint_reason text,
  CHECK (tainted = (taint_reason IS NOT NULL)),
  -- NULL only for what arrived before classification existed: it reads as internal, not as hidden.
  classification text CHECK (classification IN ('public', 'internal', 'confidential', 'restricted')),
  audiences text[] NOT NULL DEFAULT '{}',
  classified_by text NOT NULL DEFAULT 'patterns',
  file_id text REFERENCES files (id),
  delivery_id text,
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, dedup_key)
);
CREATE INDEX source_events_workspace ON source_events (workspace_id, id);

-- A workspace's own sensitivity rules; with none, the defaults classify.
CREATE TABLE sensitivity_rules (
  id bigserial PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  level text NOT NULL CHECK (level IN ('public', 'internal', 'confidential', 'restricted')),
  audience text,
  terms text[] NOT NULL CHECK (cardinality(terms) > 0),
  set_by text NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now()
);

-- A clearance is not a role: a ceiling (NULL: the role's default) and the audiences that admit the reader.
ALTER TABLE members ADD COLUMN clearance text CHECK (clearance IN ('public', 'internal', 'confidential', 'restricted'));
ALTER TABLE members ADD COLUMN audiences text[] NOT NULL DEFAULT '{}';
-- An agent's grant never reaches restricted; what it reads is also bounded by its principal's.
ALTER TABLE agents ADD COLUMN clearance text CHECK (clearance IN ('public', 'internal', 'confidential'));
ALTER TABLE agents ADD COLUMN audiences text[] NOT NULL DEFAULT '{}';

-- The usage log: every extraction run spends the deployment's one model credential.
CREATE TABLE extraction_runs (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  started_by text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  model text NOT NULL,
  reads_up_to text NOT NULL,
  -- The window: source event ids after `window_after`, up to and including `window_through`.
  window_after bigint NOT NULL,
  window_through bigint NOT NULL,
  sent integer NOT NULL,
  withheld integer NOT NULL,
  proposed integer NOT NULL DEFAULT 0,
  dropped integer NOT NULL DEFAULT 0,
  status text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  failure text,
  input_tokens integer,
  output_tokens integer
);
CREATE INDEX extraction_runs_workspace ON extraction_runs (workspace_id, started_at);

-- The review queue: what extraction proposed from what was said, and what pattern detection proposed from what was done.
CREATE TABLE candidates (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  origin text NOT NULL CHECK (origin IN ('extraction', 'pattern')),
  run_id text REFERENCES extraction_runs (id),
  statement text NOT NULL,
  rationale text,
  affects text[] NOT NULL DEFAULT '{}',
  -- The exact source events it was drawn from; a pattern's evidence is the approvals in `pattern`.
  evidence bigint[] NOT NULL DEFAULT '{}',
  CHECK (origin <> 'extraction' OR cardinality(evidence) > 0),
  pattern jsonb,
  pattern_key text,
  classification text NOT NULL CHECK (classification IN ('public', 'internal', 'confidential', 'restricted')),
  audiences text[] NOT NULL DEFAULT '{}',
  tainted boolean NOT NULL,
  proposed_at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  decided_by text,
  decided_at timestamptz,
  -- A rejection's reason is signal: what the team does not treat as a decision.
  reason text,
  decision_id text,
  proposal_id text
);
CREATE INDEX candidates_workspace ON candidates (workspace_id, status, proposed_at);
-- A pattern is proposed once: a rejection is remembered, not asked again.
CREATE UNIQUE INDEX candidates_pattern ON candidates (workspace_id, pattern_key) WHERE pattern_key IS NOT NULL;

-- A decision, one row per version: nothing is edited in place; a new version links to the one it replaces both ways.
CREATE TABLE decisions (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  -- `decision:<normalized-key>`: the same across versions and rebuilds.
  node_id text NOT NULL,
  version integer NOT NULL,
  statement text NOT NULL,
  terms text[] NOT NULL,
  -- What the compiled rule does to an action sharing its terms: it only ever tightens.
  effect text NOT NULL CHECK (effect IN ('ask', 'deny')),
  -- 'workspace', or the repository it binds; project_id is what a machine's gate filters by.
  scope text NOT NULL,
  project_id text NOT NULL,
  source_type text NOT NULL,
  source_ref text NOT NULL CHECK (source_ref ~ '^https?://'),
  evidence bigint[] NOT NULL CHECK (cardinality(evidence) > 0),
  affects text[] NOT NULL DEFAULT '{}',
  classification text NOT NULL CHECK (classification IN ('public', 'internal', 'confidential', 'restricted')),
  audiences text[] NOT NULL DEFAULT '{}',
  tainted boolean NOT NULL,
  -- A name, never a service account.
  approved_by text NOT NULL,
  approver_member_id text NOT NULL REFERENCES members (id),
  approved_at timestamptz NOT NULL DEFAULT now(),
  -- The approval as an event of its own, with a permalink: what `owns` and `supersedes` are evidenced by.
  approval_event bigint NOT NULL REFERENCES source_events (id),
  candidate_id text REFERENCES candidates (id),
  supersedes text REFERENCES decisions (id),
  superseded_by text REFERENCES decisions (id),
  UNIQUE (workspace_id, node_id, version)
);
CREATE INDEX decisions_in_force ON decisions (workspace_id) WHERE superseded_by IS NULL;

-- The decay check's answer: somebody read it again and said it still holds. Never a deletion.
CREATE TABLE decision_confirmations (
  id bigserial PRIMARY KEY,
  decision_id text NOT NULL REFERENCES decisions (id),
  confirmed_by text NOT NULL,
  confirmed_at timestamptz NOT NULL DEFAULT now()
);

-- The team graph, materialized: six kinds of node, six ties, every edge carrying the events that assert it.
CREATE TABLE graph_nodes (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('decision', 'person', 'system', 'agent', 'incident', 'source_event')),
  label text NOT NULL,
  source_ref text NOT NULL,
  classification text CHECK (classification IN ('public', 'internal', 'confidential', 'restricted')),
  audiences text[] NOT NULL DEFAULT '{}',
  props jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (workspace_id, id),
  CHECK (id LIKE kind || ':%')
);

CREATE TABLE graph_edges (
  workspace_id text NOT NULL,
  from_id text NOT NULL,
  relation text NOT NULL CHECK (relation IN ('affects', 'owns', 'caused_by', 'touched', 'supersedes', 'evidenced_by')),
  to_id text NOT NULL,
  -- `source_event:<id>` or `action:<id>`: an uncited edge is dropped rather than stored.
  evidence text[] NOT NULL CHECK (cardinality(evidence) > 0),
  -- A confirmed edge outranks an inferred one, and a later sighting never returns it to a guess.
  basis text NOT NULL CHECK (basis IN ('confirmed', 'inferred')),
  PRIMARY KEY (workspace_id, from_id, relation, to_id),
  FOREIGN KEY (workspace_id, from_id) REFERENCES graph_nodes (workspace_id, id) ON DELETE CASCADE,
  FOREIGN KEY (workspace_id, to_id) REFERENCES graph_nodes (workspace_id, id) ON DELETE CASCADE
);

-- Lineage: the correlation id a machine's action carried (from the run environment it was started in).
ALTER TABLE events ADD COLUMN correlation_id text;
CREATE INDEX events_correlation ON events (workspace_id, correlation_id) WHERE correlation_id IS NOT NULL;

-- A chain finding names every agent on it, the hops with how each was joined, and the containment it proposes.
ALTER TABLE incidents ADD COLUMN agents text[] NOT NULL DEFAULT '{}';
ALTER TABLE incidents ADD COLUMN pattern text;
ALTER TABLE incidents ADD COLUMN hops jsonb;
ALTER TABLE incidents ADD COLUMN proposal jsonb;
