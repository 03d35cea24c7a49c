import { describe, expect, test } from "bun:test";
import {
  findSecrets,
  isSecretName,
  MASK,
  maskArgv,
  maskDeep,
  maskSecrets,
  secretKinds,
  secretValues,
  withShownTargets,
} from "./secrets.ts";

// Assembled at run time so no credential-shaped literal sits in the repository.
const j = (...parts: string[]) => parts.join("");
const V = "CanaryValue7q2x";

/** Each form a credential takes on a command line or in a record, with the value that must not survive. */
const FORMS: [string, string][] = [
  [`git push https://u:${V}@github.com/acme/r.git main`, V],
  [`git clone https://x-access-token:${V}@github.com/acme/r.git`, V],
  [`git push https://${j("ghp_", "abcdefghijklmnopqrstuvwxyz0123")}@github.com/r.git`, "ghp_abcdefghij"],
  [`git remote add o https://a1b2c3d4e5f6a7b8c9d0@github.com/r.git`, "a1b2c3d4e5f6a7b8c9d0"],
  [`mysql --password=${V} -h db`, V],
  [`mysql --password ${V} -h db`, V],
  [`mysql -u root -p${V} app`, V],
  [`docker login -u me -p ${V} registry.io`, V],
  [`sshpass -p '${V}' ssh host`, V],
  [`terraform apply -var db_password=${V}`, V],
  [`terraform apply -var 'region=${V}'`, V],
  [`TF_VAR_db=${V} terraform plan`, V],
  [`export GITHUB_TOKEN=${V}`, V],
  [`DB_PASS=${V} ./migrate`, V],
  [`helm install x --set db.password=${V}`, V],
  [`gh secret set DEPLOY_KEY --body ${V}`, V],
  [`gh secret set DEPLOY_KEY -b "${V}"`, V],
  [`printf ${V} | gh secret set DEPLOY_KEY`, V],
  [`gh secret set DEPLOY_KEY <<< ${V}`, V],
  [`heroku config:set API_URL=${V} -a shop`, V],
  [`fly secrets set STRIPE=${V}`, V],
  [`railway variables set X=${V}`, V],
  [`aws configure set aws_secret_access_key ${V}`, V],
  [`aws configure set default.aws_session_token ${V}`, V],
  [`npm config set //registry.npmjs.org/:_authToken=${V}`, V],
  [`psql "password=${V} host=db dbname=app"`, V],
  [`PGPASSWORD=${V} psql -h db`, V],
  [`kubectl create secret generic s --from-literal=pw=${V}`, V],
  [`curl -H "Authorization: Bearer ${V}" https://api.x.com`, V],
  [`curl -H 'X-Api-Key: ${V}' https://api.x.com`, V],
  [`curl -u bob:${V} https://api.x.com`, V],
  [`curl https://api.x.com/v1?api_key=${V}&team=7`, V],
  [`curl -H "Cookie: session=${V}" https://x.com`, V],
  [`{"password": "${V}"}`, V],
  [`api_key: 9${V}`, V],
  ["token: sk-live-ZZZZYYYYXXXXWWWW", "ZZZZYYYYXXXX"],
  [`echo ${j("sk-ant-", "api03-abcdefghijklmnopqrst")}`, "abcdefghijklmnopqrst"],
  [`echo ${j("sk-proj-", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4")}`, "A1b2C3d4E5f6"],
  [`echo ${j("AKIA", "IOSFODNN7EXAMPLE")}`, "IOSFODNN7EXAMPLE"],
  [`echo ${j("xoxb-", "1234567890-abcdefghij")}`, "1234567890-abcdefghij"],
  [`echo ${j("glpat-", "abcdefghij0123456789")}`, "abcdefghij0123456789"],
  [
    `echo ${j("eyJ", "hbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U")}`,
    "dozjgNryP4J3",
  ],
  [
    j("-----BEGIN OPENSSH PRIVATE ", "KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE ", "KEY-----"),
    "b3BlbnNzaC1rZXk",
  ],
];

/** Lines that carry nothing secret, and must read exactly as written. */
const PLAIN = [
  "git push --force origin main",
  "memnox config set mode off",
  'git commit --author="Bob <bob@x.io>" -m "a token of trust is not a reason"',
  "cd /home/u/proj && PWD=/x ls --color=auto",
  "docker login --password-stdin -u me registry.io",
  "ssh git@github.com",
  "rm -rf /home/u/project/passes/old",
  "deny  git.push-force origin main · rule no-force-push: a token of trust is not a reason",
  "GitHub tokens: never paste them into a page",
  "open http://127.0.0.1:38927/device?code=LDXT-DHSC and confirm the code",
  "We chose Kafka; see sha256:9f86d081884c7d65 and the ask-anthropic-sdk page, sk-short.",
];

describe("one masker for every record and output", () => {
  test.each(FORMS)("%s", (line, secret) => {
    const out = maskSecrets(line);
    expect(out).not.toContain(secret);
    expect(out).toContain(MASK);
  });

  test.each(PLAIN)("%s is left alone", (line) => {
    expect(maskSecrets(line)).toBe(line);
  });

  test("what stands beside a value stays: the key, the flag, the host", () => {
    expect(maskSecrets(`heroku config:set K=${V} L=two -a shop`)).toBe("heroku config:set K=*** L=*** -a shop");
    expect(maskSecrets(`git push https://u:${V}@github.com/r.git main`)).toBe(
      "git push https://u:***@github.com/r.git main",
    );
    expect(maskSecrets(`curl -H "Authorization: Bearer ${V}" https://api.x.com`)).toBe(
      'curl -H "Authorization: Bearer ***" https://api.x.com',
    );
  });

  test("masking the text of a JSON document leaves it valid JSON, and each form masked inside it", () => {
    const doc = JSON.stringify({ rows: FORMS.map(([line]) => ({ command: line, nested: [line] })) }, null, 2);
    const out = maskSecrets(doc);
    const back = JSON.parse(out) as { rows: { command: string }[] };
    expect(back.rows.length).toBe(FORMS.length);
    for (const [, secret] of FORMS) expect(out).not.toContain(secret);
  });

  test("maskDeep keeps the shape and masks every string in it", () => {
    const v = { a: [`--token=${V}`, 3, null], b: { c: `PASSWORD=${V}` }, d: true };
    expect(maskDeep(v)).toEqual({ a: ["--token=***", 3, null], b: { c: "PASSWORD=***" }, d: true });
  });

  test("an argv is masked element by element, a value judged by the option before it", () => {
    expect(maskArgv(["--password", "hunter2", "--port", "5432", "--api-key=abc", "-y", "pkg"])).toEqual([
      "--password",
      "***",
      "--port",
      "5432",
      "--api-key=***",
      "-y",
      "pkg",
    ]);
    expect(maskArgv([j("ghp_", "abcdefghijklmnopqrstuvwxyz0123"), j("sk-ant-", "api03-abcdefgh")])).toEqual([
      "***",
      "***",
    ]);
    expect(maskArgv(["--token", "--other"])).toEqual(["--token", "--other"]);
    expect(maskArgv(["-H", `Authorization: Bearer ${V}`])).toEqual(["-H", "Authorization: Bearer ***"]);
  });

  test("targets lose a credential the raw call showed by where it stood, though alone they look like nothing", () => {
    const raw = `mysql --password ${V} app; gh secret set X --body ${V}`;
    expect(secretValues(raw)).toEqual([V]);
    const [a, b] = withShownTargets(
      [
        { name: "mysql.interactive", class: "unknown", targets: [V, "app"], arguments: {} },
        { name: "gh.secret-set", class: "communication", targets: ["X"], arguments: {} },
      ],
      raw,
    );
    expect(a?.targets).toEqual([V, "app"]);
    expect(a?.shown).toEqual([MASK, "app"]);
    expect(b?.shown).toBeUndefined();
  });

  test("names that carry a credential", () => {
    for (const n of ["GITHUB_TOKEN", "--api-key", "db.password", "_authToken", "AWS_SECRET_ACCESS_KEY", "DB_PASS"])
      expect(isSecretName(n)).toBe(true);
    for (const n of ["PATH", "--port", "author", "PWD", "--force", "passthrough"]) expect(isSecretName(n)).toBe(false);
  });

  test("the memory catalog: memex's kinds, a database URL whole, command-line forms left to the records", () => {
    const url = j("postgres://", "admin:s3cret@db.internal:5432/prod");
    expect(secretKinds(`see ${url}`, "memory")).toEqual(["db_url"]);
    expect(findSecrets(`PASSWORD=${V}`, "memory")).toEqual([]);
    expect(maskSecrets(`see ${url}`)).toBe("see postgres://admin:***@db.internal:5432/prod");
  });

  test("the legacy OpenAI key form is its own kind in memory and masked in records", () => {
    const legacy = j("sk-", "T3BlbkFJ", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNop");
    expect(secretKinds(`key ${legacy} here`, "memory")).toEqual(["openai_legacy_key"]);
    expect(maskSecrets(`key ${legacy} here`)).toBe("key *** here");
    expect(secretKinds(j("sk-proj-", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"), "memory")).toEqual(["openai_key"]);
  });
});

describe("credentials in files a config is written in", () => {
  // An AWS secret access key has no shape of its own: only where it stands says what it is.
  const AWS = j("wJalrXUtnFEMI/K7MDENG/", "bPxRfiCYEXAMPLEKEY");
  const FILES: [string, string][] = [
    [`[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = ${AWS}\n`, AWS],
    [`aws_secret_access_key=${AWS}`, AWS],
    [`[profile ci]\naws_session_token   =   ${V}\n`, V],
    [`[database]\npassword = "${V}"\n`, V],
    [`api_key = '${V}'`, V],
    [`DB_PASSWORD = ${V}`, V],
    [`export STRIPE_SECRET_KEY = ${V}`, V],
    [`$env:AWS_SECRET_ACCESS_KEY = "${V}"`, V],
    [`token := "${V}"`, V],
    [`:password => "${V}",`, V],
    [`machine api.example.com login me password ${V}`, V],
    [`<password>${V}</password>`, V],
    [`{"aws_secret_access_key" : "${AWS}"}`, AWS],
    [`echo "aws_secret_access_key = ${AWS}" >> ~/.aws/credentials`, AWS],
  ];
  test.each(FILES)("%s", (text, secret) => {
    const out = maskSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(MASK);
  });

  test("the key, the spacing and the line around it stay; only the value goes", () => {
    expect(maskSecrets(`aws_secret_access_key = ${AWS}\nregion = eu-west-1`)).toBe(
      "aws_secret_access_key = ***\nregion = eu-west-1",
    );
  });

  test("a name followed by code, a reference, a path or a literal is not a value", () => {
    for (const line of [
      "token = getToken()",
      "api_key = $API_KEY",
      "password_file = ~/.config/pw",
      "secret = null",
      "if token == other",
      "credentials = ./creds.json",
    ])
      expect(maskSecrets(line)).toBe(line);
  });
});
