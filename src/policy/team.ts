// The repository's own rule file setup writes: five rules a team reviews in a diff, each with a comment saying why.
// The machine baseline (~/.memnox/machine.policies.toml) holds the rest; these add to it and, the strictest verdict
// winning whatever the file, can only tighten it. Pure.
import type { RuleSpec } from "./baseline.ts";

const MAIN = ["main", "master"];

interface TeamRule {
  readonly why: readonly string[];
  readonly rule: RuleSpec;
}

const RULES: readonly TeamRule[] = [
  {
    why: [
      "main is the history everyone here builds on: rewriting it (even with a lease) or deleting it breaks their work.",
    ],
    rule: {
      name: "main-history-not-rewritten",
      match: { actions: ["git.push-force", "git.push-lease", "git.push-delete"], branches: MAIN },
      decision: {
        effect: "deny",
        reason: "main is the history everyone on this team builds on, and rewriting or deleting it breaks their work",
        alternative: {
          action: "git.push",
          note: "Push a branch of your own and open a pull request; rewrite that branch with --force-with-lease if you must.",
        },
      },
    },
  },
  {
    why: ["What lands on main is what the team ships, so a person looks before an agent puts it there."],
    rule: {
      name: "main-pushes-asked",
      match: { actions: ["git.push"], branches: MAIN },
      decision: { effect: "ask", reason: "what lands on main is what this team ships, so a person looks first" },
    },
  },
  {
    why: ["Merging is the team's decision, taken after a review, not an agent's."],
    rule: {
      name: "pull-request-merges-asked",
      match: { actions: ["gh.pr-merge"] },
      decision: { effect: "ask", reason: "merging is this team's decision, taken after a review" },
    },
  },
  {
    why: ["CI runs this code with the team's secrets on every push, so a change to it is reviewed first."],
    rule: {
      name: "ci-changes-asked",
      match: {
        actions: ["filesystem.write", "filesystem.delete"],
        targets: ["**/.github/workflows/**", "**/.gitlab-ci.yml", "**/.circleci/**", "**/Jenkinsfile"],
      },
      decision: { effect: "ask", reason: "CI runs this code with the team's secrets on every push" },
    },
  },
  {
    why: ["A release reaches every user at once and cannot be called back."],
    rule: {
      name: "releases-asked",
      match: { actions: ["npm.publish", "gh.release-create", "gh.release-upload"] },
      decision: { effect: "ask", reason: "a release reaches every user at once and cannot be called back" },
    },
  },
];

export function teamRules(): readonly RuleSpec[] {
  return RULES.map((r) => r.rule);
}

/** The comment above each of the team's rules. */
export function teamRuleComment(name: string): readonly string[] {
  return RULES.find((r) => r.rule.name === name)?.why ?? [];
}

/** The comment at the top of a new repository file: what it is, what it adds to, how to read both. */
export function teamFileHeader(date: string): readonly string[] {
  return [
    `This repository's own rules for the agents working in it, written by memnox setup on ${date}.`,
    "Review a change to this file like code: it changes what agents may do here.",
    "",
    "They add to the machine's baseline in ~/.memnox/machine.policies.toml (secrets, destructive commands, memnox's",
    "own files), which every repository on this machine gets. deny beats ask beats allow whatever the file or order,",
    "so a rule here can tighten the machine's and never loosen it. `memnox policy check` reads both files, and",
    "`memnox policy test '<command>'` says what a command would meet.",
  ];
}
