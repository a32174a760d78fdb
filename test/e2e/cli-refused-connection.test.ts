/**
 * A model server on this machine that is not running: the error comes at
 * once, without the AI SDK's retries (which took 6 s), for OpenAI-compatible
 * base URLs and ANTHROPIC_BASE_URL alike.
 */
import net from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { STACK_TRACE } from "./helpers.js";

let dirs: AcaiDirs;
beforeEach(async () => {
  dirs = await makeAcaiDirs();
});
afterEach(async () => {
  await dirs.cleanup();
});

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("a refused local connection fails without retries", () => {
  for (const host of ["127.0.0.1", "localhost"]) {
    it(`--base-url http://${host}:PORT/v1 with nothing listening: one attempt, the clear message`, async () => {
      const port = await closedPort();
      const url = `http://${host}:${port}/v1`;
      const result = await runAcai({
        args: ["-p", "hi", "--model", "openai:llama3.1", "--base-url", url],
        dirs,
      });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(
        `acai: error: could not reach the model server at ${url}/chat/completions (ECONNREFUSED): is a server running at that address?`,
      );
      expect(result.stderr).not.toContain("attempts");
      expect(result.stderr).not.toMatch(STACK_TRACE);
    });
  }

  it("ANTHROPIC_BASE_URL on this machine with nothing listening: one attempt", async () => {
    const port = await closedPort();
    const result = await runAcai({
      args: ["-p", "hi", "--model", "anthropic:claude-test"],
      dirs,
      env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: "test-key" },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("ECONNREFUSED");
    expect(result.stderr).not.toContain("attempts");
    // The Anthropic server's variable, not the OpenAI-compatible server's.
    expect(result.stderr).toContain("Check ANTHROPIC_BASE_URL");
    expect(result.stderr).not.toMatch(/OPENAI_BASE_URL|--base-url/);
  });
});
