/**
 * Secrets through `acai -p`: acai runs with the secret-looking
 * variables (and their relatives) in its environment; hooks of every kind
 * (project executable, HOOK.md, settings; a user executable) and dynamic tools
 * (project and user, describe and execute) dump the environment they got. None
 * of the secrets arrive unless the hook or tool lists the name in its `env`;
 * what programs need (PATH, HOME, PWD, ...) does; the Bash tool, the user's
 * shell, gets everything.
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs } from "./helpers.js";
import { installHooks, SOURCE_KINDS } from "./hooks-support.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** Secret-looking variables acai is started with. Every value holds `MARK` and its name. */
const MARK = "s3cr3tmark";
const v = (name: string) => `${MARK}-${name}`;
const SECRETS: Record<string, string> = {
  ANTHROPIC_API_KEY: v("ANTHROPIC_API_KEY"),
  AWS_ACCESS_KEY_ID: v("AWS_ACCESS_KEY_ID"),
  AWS_SECRET_ACCESS_KEY: v("AWS_SECRET_ACCESS_KEY"),
  AWS_SESSION_TOKEN: v("AWS_SESSION_TOKEN"),
  GITHUB_TOKEN: v("GITHUB_TOKEN"),
  GH_PAT: v("GH_PAT"),
  NPM_TOKEN: v("NPM_TOKEN"),
  npm_config__authToken: v("npm_config__authToken"),
  NODE_AUTH_TOKEN: v("NODE_AUTH_TOKEN"),
  VAULT_TOKEN: v("VAULT_TOKEN"),
  PGPASSWORD: v("PGPASSWORD"),
  MYSQL_PWD: v("MYSQL_PWD"),
  DB_PASSWORD: v("DB_PASSWORD"),
  SMTP_PASS: v("SMTP_PASS"),
  REDIS_PASSWD: v("REDIS_PASSWD"),
  GPG_PASSPHRASE: v("GPG_PASSPHRASE"),
  PRIVATE_KEY: v("PRIVATE_KEY"),
  STRIPE_KEY: v("STRIPE_KEY"),
  JWT_SIGNING_KEY: v("JWT_SIGNING_KEY"),
  AZURE_CLIENT_SECRET: v("AZURE_CLIENT_SECRET"),
  SESSION_SECRET: v("SESSION_SECRET"),
  GOOGLE_APPLICATION_CREDENTIALS: v("GOOGLE_APPLICATION_CREDENTIALS"),
  DOCKER_AUTH_CONFIG: v("DOCKER_AUTH_CONFIG"),
  SLACK_WEBHOOK_URL: `https://example.com/${v("SLACK_WEBHOOK_URL")}`,
  SENTRY_DSN: `https://${MARK}@o1.ingest.sentry.io/1`,
  OP_SESSION_me: v("OP_SESSION_me"),
  COOKIE_JAR: v("COOKIE_JAR"),
  SSH_AUTH_SOCK: `/tmp/${v("SSH_AUTH_SOCK")}/agent.1`,
  SSH_AGENT_PID: "4242",
  GPG_AGENT_INFO: `/run/${v("GPG_AGENT_INFO")}/S.gpg-agent:0:1`,
  KRB5CCNAME: `FILE:/tmp/${v("KRB5CCNAME")}`,
  DATABASE_URL: `postgres://app:${v("DATABASE_URL")}@db:5432/app`,
  REDIS_URL: `redis://:${v("REDIS_URL")}@cache:6379/0`,
  npm_config_proxy: `http://me:${v("npm_config_proxy")}@proxy:3128`,
  SQL_CONN: `Server=db;User Id=sa;Password=${v("SQL_CONN")};`,
  DEPLOY_MATERIAL: `-----BEGIN OPENSSH PRIVATE KEY-----\n${MARK}\n-----END OPENSSH PRIVATE KEY-----`,
  GH_STUFF: `ghp_${MARK}0123456789abcdefghijklmnopqrstu`,
};
/** OPENAI_API_KEY is `test-key` (run-acai sets it): acai's own key. */
const ALL_SECRET_NAMES = [...Object.keys(SECRETS), "OPENAI_API_KEY"];

/** Kept: what programs need and near misses of the word rules. */
const KEPT: Record<string, string> = {
  OLDPWD: "/home/me/elsewhere",
  TERM: "xterm-256color",
  KUBECONFIG: "/home/me/.kube/config",
  TOKENIZERS_PARALLELISM: "false",
  XDG_SESSION_TYPE: "wayland",
  DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus",
  GIT_AUTHOR_NAME: "Me",
  PLAIN_SETTING: "visible",
};

/** What each hook and tool asks for. */
const ALLOWED = ["GH_PAT", "DATABASE_URL", "SSH_AUTH_SOCK"];

/** A node program that writes its environment as JSON to `$HOOK_E2E_DIR/<label>[-<TOOL_ACTION>].json`. */
function dumper(label: string, tool = false): string {
  const suffix = tool ? ' + "-" + process.env.TOOL_ACTION' : "";
  return [
    "#!/usr/bin/env node",
    'const fs = require("node:fs");',
    "try { fs.readFileSync(0); } catch {}",
    `fs.writeFileSync(process.env.HOOK_E2E_DIR + "/${label}"${suffix} + ".json", JSON.stringify(process.env));`,
    "",
  ].join("\n");
}

/** A dynamic tool: describe prints its metadata (after dumping), execute dumps. */
function toolScript(label: string, env?: string[]): string {
  const metadata = JSON.stringify({ name: label, description: `dumps env (${label})`, env });
  return `${dumper(label, true)}if (process.env.TOOL_ACTION === "describe") console.log(${JSON.stringify(metadata)});\n`;
}

async function writeExecutable(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  await chmod(file, 0o755);
}

async function dump(d: AcaiDirs, label: string): Promise<Record<string, string>> {
  return JSON.parse(await readFile(path.join(d.root, `${label}.json`), "utf8"));
}

describe("secrets in the environment of hooks and dynamic tools", () => {
  it("reach no hook or tool unless its env lists them; Bash gets them all", async () => {
    const d = await makeAcaiDirs("acai-secrets-env-");
    dirs = d;
    for (const kind of SOURCE_KINDS) {
      await installHooks(d, kind, [
        { name: `${kind}-plain`, events: ["user_prompt"], script: dumper(`hook-${kind}-plain`) },
        {
          name: `${kind}-allowed`,
          events: ["user_prompt"],
          script: dumper(`hook-${kind}-allowed`),
          env: ALLOWED,
        },
      ]);
    }
    const userHookMeta = JSON.stringify({ name: "user-plain", events: ["user_prompt"] });
    await writeExecutable(
      path.join(d.acaiHome, "hooks", "user-plain"),
      `${dumper("hook-user-plain")}`.replace(
        "const fs",
        `if (process.env.HOOK_ACTION === "describe") { console.log(${JSON.stringify(userHookMeta)}); process.exit(0); }\nconst fs`,
      ),
    );
    await writeExecutable(path.join(d.cwd, ".acai", "tools", "tp"), toolScript("tool_project"));
    await writeExecutable(
      path.join(d.cwd, ".acai", "tools", "tpa"),
      toolScript("tool_project_allowed", ALLOWED),
    );
    await writeExecutable(
      path.join(d.acaiHome, "tools", "tu"),
      toolScript("tool_user_allowed", ["OPENAI_API_KEY"]),
    );

    server = await startFakeOpenAI([
      {
        toolCalls: [
          { name: "tool_project", input: {} },
          { name: "tool_project_allowed", input: {} },
          { name: "tool_user_allowed", input: {} },
          { name: "Bash", input: { command: 'env > "$HOOK_E2E_DIR/bash-env"' } },
        ],
      },
      { text: "done" },
    ]);
    const env = { HOOK_E2E_DIR: d.root, PWD: d.cwd, ...SECRETS, ...KEPT };
    // The describe `env` requests of project executables count once `acai hooks trust` showed them.
    const trusted = await runAcai({ dirs: d, args: ["hooks", "trust"], env });
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain(
      `  - tool_project_allowed (.acai/tools/tpa): ${[...ALLOWED].sort().join(", ")}`,
    );
    const result = await runAcai({
      dirs: d,
      args: ["-p", "hi", "--yes", ...modelArgs("chat", server)],
      baseUrl: server.url,
      env,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("which you have not confirmed");
    expect(result.stderr).not.toContain("skipped");

    const expectScrubbed = (env: Record<string, string>, label: string, allowed: string[]) => {
      for (const name of ALL_SECRET_NAMES) {
        if (allowed.includes(name)) {
          expect(env[name], `${label}: ${name}`).toBe(
            name === "OPENAI_API_KEY" ? "test-key" : SECRETS[name],
          );
        } else {
          expect(env[name], `${label}: ${name}`).toBeUndefined();
        }
      }
      const leaked = Object.entries(env).filter(
        ([name, value]) =>
          !allowed.includes(name) && (value.includes(MARK) || value === "test-key"),
      );
      expect(leaked, label).toEqual([]);
      for (const [name, value] of Object.entries(KEPT))
        expect(env[name], `${label}: ${name}`).toBe(value);
      expect(env.PATH, label).toBeTruthy();
      expect(env.HOME, label).toBe(d.home);
      expect(env.LANG, label).toBe("C.UTF-8");
      expect(env.PWD, label).toBe(d.cwd);
    };

    for (const kind of SOURCE_KINDS) {
      const plain = await dump(d, `hook-${kind}-plain`);
      expectScrubbed(plain, `${kind} hook`, []);
      // SESSION is a secret word, but acai's own variables are set after scrubbing.
      expect(plain.ACAI_SESSION_ID).toMatch(/.+/);
      expect(plain.ACAI_PROJECT_DIR).toBe(d.cwd);
      expectScrubbed(await dump(d, `hook-${kind}-allowed`), `${kind} hook with env`, ALLOWED);
    }
    expectScrubbed(await dump(d, "hook-user-plain"), "user hook", []);
    for (const action of ["describe", "execute"]) {
      // Describe runs before the tool has said what it needs: no secrets at all.
      const allowed = (list: string[]) => (action === "describe" ? [] : list);
      expectScrubbed(await dump(d, `tool_project-${action}`), `project tool ${action}`, []);
      expectScrubbed(
        await dump(d, `tool_project_allowed-${action}`),
        `project tool with env, ${action}`,
        allowed(ALLOWED),
      );
      expectScrubbed(
        await dump(d, `tool_user_allowed-${action}`),
        `user tool with env, ${action}`,
        allowed(["OPENAI_API_KEY"]),
      );
    }

    const bash = await readFile(path.join(d.root, "bash-env"), "utf8");
    expect(bash).toContain("OPENAI_API_KEY=test-key");
    expect(bash).toContain(`GH_PAT=${SECRETS.GH_PAT}`);
    expect(bash).toContain(`SSH_AUTH_SOCK=${SECRETS.SSH_AUTH_SOCK}`);
    expect(bash).toContain(`DATABASE_URL=${SECRETS.DATABASE_URL}`);
  });
});
