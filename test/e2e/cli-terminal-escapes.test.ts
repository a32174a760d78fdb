/**
 * What acai -p prints of tools and hooks on stderr carries no terminal escape
 * sequence: a command's output cannot retitle or recolour the user's terminal.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-escapes-e2e-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe("terminal escapes in acai -p text output", () => {
  it("--verbose shows a failing command's output and a hook's message without their escapes", async () => {
    const message = JSON.stringify({ systemMessage: "\x1b]0;HOOKED\x07\x1b[1mhook says hi" });
    const hooks = {
      PostToolUseFailure: [
        {
          hooks: [
            {
              type: "command",
              name: "shouter",
              command: `cat >/dev/null; printf '%s' '${message}'`,
            },
          ],
        },
      ],
    };
    await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ hooks }));
    const command = String.raw`printf '\033]0;PWNED\007\033[31mred'; exit 1`;
    server = await startFakeOpenAI([
      {
        toolCalls: [{ name: "Bash", input: { command } }],
      },
      { text: "done" },
    ]);
    const result = await runAcai({
      args: ["-p", "run it", "--yes", "--verbose", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("done\n");
    // The command itself is shown as JSON (escaped); its output is shown stripped.
    expect(result.stderr).toContain(`acai: tool Bash ${JSON.stringify({ command })}`);
    expect(result.stderr).toMatch(/^acai: tool Bash failed: .*Output: red$/m);
    expect(result.stderr).toMatch(/^acai: hook shouter: hook says hi$/m);
    expect(result.stderr).not.toContain("HOOKED");
    expect(result.stderr).not.toMatch(CONTROL);
  });
});
