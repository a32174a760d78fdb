/** `OPENAI_BASE_URL=""` / `ANTHROPIC_BASE_URL=""` (set but empty) mean unset, for every kind of run. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, REPO_ROOT, runAcai } from "../support/run-acai.js";
import { STACK_TRACE } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const REPLAY = `replay:${REPO_ROOT}/examples/replay/demo.json`;

describe("an empty base-URL variable is unset", () => {
  for (const name of ["OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"]) {
    it(`${name}="" does not stop a replay run`, async () => {
      const result = await runAcai({
        // The demo writes ACAI_DEMO.md: allowed by rule, as -p asks no one.
        args: ["-p", "hi", "--model", REPLAY, "--allowedTools", "Edit(ACAI_DEMO.md)"],
        dirs,
        env: { [name]: "" },
      });
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain("ACAI_DEMO.md");
    });
  }

  it('OPENAI_BASE_URL="  " with --base-url talks to the flag\'s server', async () => {
    server = await startFakeOpenAI([{ text: "hello from the server" }]);
    const result = await runAcai({
      args: ["-p", "hi", "--model", "openai:fake-model", "--base-url", server.url],
      dirs,
      env: { OPENAI_BASE_URL: "  ", ANTHROPIC_BASE_URL: "" },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("hello from the server");
    expect(server.requests).toHaveLength(1);
  });

  it('OPENAI_BASE_URL="" without a key or --base-url gives the no-model message, not an SDK error', async () => {
    const result = await runAcai({
      args: ["-p", "hi", "--model", "openai:gpt-5.1"],
      dirs,
      env: { OPENAI_BASE_URL: "", OPENAI_API_KEY: undefined },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("OPENAI_API_KEY is not set");
    expect(result.stderr).not.toContain("baseURL must be a non-empty string");
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });
});
