// Which model provider an untrusted session's proxy lets through without asking, beside the package registries
// (src/core/registries.ts): the agent's default, and whatever base URL its environment points it at. Pure.

/** Each agent's model provider, by the program's name, and the variables that move it elsewhere. */
const PROVIDERS: Readonly<Record<string, { readonly hosts: readonly string[]; readonly vars: readonly string[] }>> = {
  claude: { hosts: ["api.anthropic.com"], vars: ["ANTHROPIC_BASE_URL"] },
  codex: { hosts: ["api.openai.com", "chatgpt.com", "auth.openai.com"], vars: ["OPENAI_BASE_URL"] },
  gemini: {
    hosts: ["generativelanguage.googleapis.com", "cloudcode-pa.googleapis.com", "oauth2.googleapis.com"],
    vars: ["GOOGLE_GEMINI_BASE_URL", "GEMINI_API_BASE_URL"],
  },
  "cursor-agent": { hosts: ["api2.cursor.sh", "api.cursor.sh"], vars: [] },
};

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "") || undefined;
  } catch {
    return undefined;
  }
}

/** The agent's provider hosts: none for a program memnox does not know, which then asks for every host. */
export function providerHosts(program: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const p = PROVIDERS[program];
  if (!p) return [];
  const moved = p.vars.map((v) => hostOf(env[v])).filter((h): h is string => h !== undefined);
  return [...new Set([...p.hosts, ...moved])];
}
