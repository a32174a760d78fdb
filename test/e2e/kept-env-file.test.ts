/**
 * `acai -p` with a session_start hook that writes CLAUDE_ENV_FILE and a
 * user_prompt hook, both sandboxed (decision 0069): one spawner serves both
 * (bwrap starts once for them, and once for the probe), the session_start
 * hook's exports reach the Bash tool, and the user_prompt hook — in the same
 * sandbox — cannot write the session's env files.
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { containmentInForce, findBwrap } from "../../source/process/bwrap.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

async function script(file: string, text: string): Promise<string> {
  await writeFile(file, text);
  await chmod(file, 0o755);
  return file;
}

const ENV_HOOK = `#!/usr/bin/env bash
set -euo pipefail
cat > /dev/null
echo 'export FOO=bar' >> "$CLAUDE_ENV_FILE"
`;

/** Tries every session env file acai keeps: none may be written from this hook's sandbox. */
const PROMPT_HOOK = `#!/usr/bin/env bash
cat > /dev/null
for f in "$ACAI_HOME"/session-env/*/*; do
  if echo 'export EVIL=1' >> "$f" 2>/dev/null; then echo "wrote $f"; else echo "refused $f"; fi
done > "$HOME/prompt-hook"
`;

const bwrap = findBwrap();

describe.skipIf(containmentInForce().kind !== "namespace" || bwrap === undefined)(
  "a session_start hook's CLAUDE_ENV_FILE in the sandbox",
  () => {
    it("is kept in the hooks' one spawner, reaches Bash, and no other hook can write it", async () => {
      const d = await makeAcaiDirs("acai-kept-env-");
      dirs = d;
      // A bwrap that logs what it is asked to run, first on PATH.
      const bin = path.join(d.root, "bin");
      await mkdir(bin);
      const log = path.join(d.root, "bwrap.log");
      await script(
        path.join(bin, "bwrap"),
        `#!/bin/sh\nfor a; do last=$a; done\necho "$last" >> '${log}'\nexec '${bwrap}' "$@"\n`,
      );
      const hook = await script(path.join(d.root, "env-hook.sh"), ENV_HOOK);
      const prompt = await script(path.join(d.root, "prompt-hook.sh"), PROMPT_HOOK);
      await writeFile(
        path.join(d.acaiHome, "settings.json"),
        JSON.stringify({
          hooks: {
            SessionStart: [{ hooks: [{ type: "command", command: hook }] }],
            UserPromptSubmit: [{ hooks: [{ type: "command", command: prompt }] }],
          },
        }),
      );
      const srv = await startFakeOpenAI([
        {
          toolCalls: [
            // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax
            { name: "Bash", input: { command: 'echo "FOO=$FOO EVIL=${EVIL-unset}"' } },
          ],
        },
        { text: "done" },
      ]);
      server = srv;
      const result = await runAcai({
        args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
        dirs: d,
        env: { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` },
      });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(toolResultsSent(srv.requests[1]?.body).join("\n")).toContain("FOO=bar EVIL=unset");
      const tried = (await readFile(path.join(d.home, "prompt-hook"), "utf8")).trim();
      expect(tried).toMatch(/^refused .*env-hook-0\.sh$/);
      // The probe (`bwrap … true`), then one spawner for both hooks and the Bash tool.
      const started = (await readFile(log, "utf8")).trim().split("\n");
      expect(started.filter((last) => last !== "true")).toHaveLength(1);
    });
  },
);
