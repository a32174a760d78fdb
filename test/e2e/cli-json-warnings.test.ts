/**
 * `--output-format json`: stdout is the one result object, and what goes wrong
 * during the run (failing hooks, hook warnings, transcript and audit log write
 * failures, provider errors) is still said on stderr, as docs/cli.md promises.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { jsonLines, modelArgs, STACK_TRACE } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-json-warnings-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

describe("acai -p --output-format json", () => {
  it("prints warnings raised during the run on stderr; stdout stays the result object", async () => {
    const hooks = {
      UserPromptSubmit: [
        {
          hooks: [
            {
              type: "command",
              name: "flaky",
              command: "cat >/dev/null; echo FLAKY-BROKE >&2; exit 1",
            },
          ],
        },
      ],
    };
    await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ hooks }));
    // Files where acai wants folders: the transcript and the audit log cannot be written.
    await writeFile(path.join(dirs.acaiHome, "transcripts"), "not a folder");
    await writeFile(path.join(dirs.acaiHome, "logs"), "not a folder");
    server = await startFakeOpenAI([{ text: "all done" }]);
    const result = await runAcai({
      args: ["-p", "hello", "--output-format", "json", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: "result", text: "all done", is_error: false });

    const stderr = result.stderr.trimEnd().split("\n");
    expect(stderr.every((line) => line.startsWith("acai: "))).toBe(true);
    expect(result.stderr).toMatch(
      /acai: hook warning \(flaky\): hook "flaky" failed: .*FLAKY-BROKE/,
    );
    expect(result.stderr).toMatch(/acai: hook warning: the hooks audit log cannot be written/);
    expect(result.stderr).toMatch(/acai: warning: Could not write the transcript .*transcripts/);
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });

  it("prints a provider error on stderr as well as in the result", async () => {
    server = await startFakeOpenAI([{ status: 401, errorMessage: "Incorrect API key provided" }]);
    const result = await runAcai({
      args: ["-p", "hello", "--output-format", "json", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode).toBe(1);
    const lines = jsonLines(result.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ is_error: true, error: expect.stringContaining("401") });
    expect(result.stderr).toMatch(/^acai: error: .*401/m);
  });
});
