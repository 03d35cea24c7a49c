-- Issue 33, third part: teams, named groups of people inside a workspace. Putting somebody on one grants them the
-- workspace at the team's role (the member's own role: the grant on the organization's one workspace); taking them off
-- leaves the grant, which is changed on the member.
CREATE TABLE teams (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'reviewer', 'admin')),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, name)
);

CREATE TABLE team_members (
  team_id text NOT NULL REFERENCES teams (id),
  member_id text NOT NULL REFERENCES members (id),
  added_by text NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, member_id)
);
