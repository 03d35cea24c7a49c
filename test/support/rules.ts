// The rule most seam tests stand on: a force push denied with its reason and the push to make instead.
export const FORCE_PUSH_DENIED = `version = 1
[[policies]]
name = "no-force-push"
[policies.match]
actions = ["git.push-force"]
[policies.decision]
effect = "deny"
reason = "a force-push can destroy work that exists nowhere else"
[policies.decision.alternative]
action = "git.push"
note = "push without --force"
`;
