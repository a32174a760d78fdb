/**
 * `acai hooks import --from claude` names the secret-looking variables each
 * imported hook reads (its command, and script files it names in the project)
 * and lists them in the hook's `env`, so a TTS hook keyed on
 * ELEVENLABS_API_KEY still gets its key in acai.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { secretVariablesRead } from "../../../source/cli/hooks/import-secrets.js";
import { modelArgs } from "../../e2e/helpers.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../../support/fake-openai-server.js";
import { type AcaiDirs, acai, tempProject, writeExecutable } from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

describe("secretVariablesRead", () => {
  it("finds shell, Python, Node and other spellings; only secret-looking names", () => {
    const text = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax
      'curl -H "xi-api-key: $ELEVENLABS_API_KEY" "${SLACK_WEBHOOK_URL}" "$HOME" "$CLAUDE_PROJECT_DIR"',
      'key = os.environ["OPENAI_API_KEY"]; t = os.environ.get("GH_TOKEN"); os.getenv("DB_PASSWORD")',
      'const k = process.env.ANTHROPIC_API_KEY ?? process.env["NPM_TOKEN"]; process.env.NODE_ENV',
      'ENV.fetch("STRIPE_SECRET"); os.Getenv("SENTRY_DSN"); $ACAI_SESSION_ID',
    ].join("\n");
    expect(secretVariablesRead(text)).toEqual([
      "ELEVENLABS_API_KEY",
      "SLACK_WEBHOOK_URL",
      "OPENAI_API_KEY",
      "GH_TOKEN",
      "DB_PASSWORD",
      "ANTHROPIC_API_KEY",
      "NPM_TOKEN",
      "STRIPE_SECRET",
      "SENTRY_DSN",
    ]);
  });
});

describe("acai hooks import: secrets a hook reads", () => {
  it("adds them to the hook's env, says so, and the imported hook then gets its key", async () => {
    const d = await tempProject();
    dirs = d;
    // A TTS-style Stop hook: speaks with ElevenLabs when the key is there, else falls back.
    await writeExecutable(
      path.join(d.cwd, ".claude", "hooks", "tts.py"),
      `#!/usr/bin/env python3
import os, sys
sys.stdin.read()
key = os.environ.get("ELEVENLABS_API_KEY")
mode = "elevenlabs" if key else "fallback"
open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "tts.log"), "a").write(mode + "\\n")
`,
    );
    await mkdir(path.join(d.cwd, ".claude"), { recursive: true });
    await writeFile(
      path.join(d.cwd, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          Stop: [
            {
              hooks: [
                { type: "command", command: 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/tts.py' },
              ],
            },
          ],
          Notification: [
            {
              hooks: [{ type: "command", command: 'curl -s -d "$1" "$SLACK_WEBHOOK_URL" || true' }],
            },
          ],
          UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo plain" }] }],
        },
      }),
    );

    const imported = await acai(d, ["hooks", "import", "--from", "claude"]);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      "Secrets passed on (acai removes secret-looking variables from hooks unless listed in env):",
    );
    expect(imported.stdout).toContain(
      `hooks.Stop[0].hooks[0]: reads ELEVENLABS_API_KEY (in .claude/hooks/tts.py): added to its "env"`,
    );
    expect(imported.stdout).toContain(
      `hooks.Notification[0].hooks[0]: reads SLACK_WEBHOOK_URL (in the command): added to its "env"`,
    );
    expect(imported.stdout).toMatch(
      /\+ before_stop: .*tts\.py \(timeout 60 s, env: ELEVENLABS_API_KEY\)/,
    );
    const written = JSON.parse(await readFile(path.join(d.cwd, ".acai", "settings.json"), "utf8"));
    expect(written.hooks.before_stop[0].hooks[0].env).toEqual(["ELEVENLABS_API_KEY"]);
    expect(written.hooks.notification[0].hooks[0].env).toEqual(["SLACK_WEBHOOK_URL"]);
    expect(written.hooks.user_prompt[0].hooks[0].env).toBeUndefined();

    const srv = await startFakeOpenAI([{ text: "done" }]);
    server = srv;
    const run = await acai(d, ["-p", "hi", "--trust-project", ...modelArgs("chat", srv)], {
      env: { ELEVENLABS_API_KEY: "xi-test-key" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect((await readFile(path.join(d.cwd, "tts.log"), "utf8")).trim()).toBe("elevenlabs");
  });
});
