import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, startAcai } from "../support/run-acai.js";
import { jsonLines, modelArgs, STACK_TRACE } from "./helpers.js";

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

function processesWith(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("acai -p under signals", () => {
  it("SIGTERM during a slow model stream exits 143 promptly with a result", async () => {
    server = await startFakeOpenAI([{ text: "partial answer that never ends", hangMs: 30_000 }]);
    const run = startAcai({
      args: ["-p", "go", "--yes", "--output-format", "stream-json", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    let stdout = "";
    run.child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    await until(() => stdout.includes('"text_delta"'));
    const sentAt = Date.now();
    run.child.kill("SIGTERM");
    const result = await run.result;
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    expect(result.exitCode).toBe(143);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    const lines = jsonLines(result.stdout);
    expect(lines.at(-2)).toMatchObject({ type: "session_end", reason: "aborted" });
    expect(lines.at(-1)).toMatchObject({
      type: "result",
      exit_code: 143,
      is_error: true,
      error: "interrupted by SIGTERM",
    });
  });

  it("SIGINT while a Bash tool runs kills the tool's process group and exits 130", async () => {
    const marker = `acai-e2e-${randomUUID()}`;
    server = await startFakeOpenAI([
      {
        toolCalls: [
          { name: "Bash", input: { command: `(exec -a ${marker} sleep 60); echo done` } },
        ],
      },
      { text: "unreachable" },
    ]);
    const run = startAcai({
      args: ["-p", "go", "--yes", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    // Both the shell and its `sleep` (argv[0] set to the marker) must be running, then gone.
    await until(() => processesWith(marker).length >= 2);
    run.child.kill("SIGINT");
    const result = await run.result;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    await until(() => processesWith(marker).length === 0, 3_000);
    expect(server.requests).toHaveLength(1);
  });
});
