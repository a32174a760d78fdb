/**
 * The idle event through `acai -p`: with `idleMs` small, an idle hook fires
 * while a long tool runs, and what it injects reaches the model with the next
 * request (what the scripted server recorded). Its payload carries
 * `idle_seconds` and the session's context (project_name, session_started_at).
 */
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

describe("the idle event, through acai -p", () => {
  it("an idle hook's text reaches the agent with its next request", async () => {
    dirs = await makeAcaiDirs("acai-idle-e2e-");
    const hook = path.join(dirs.root, "idle.sh");
    const payloads = path.join(dirs.root, "idle-payloads.jsonl");
    await writeFile(
      hook,
      `#!/bin/sh\ncat >> '${payloads}'\necho >> '${payloads}'\necho '{"inject": "[STATUS CHECK] Are you making progress?"}'\n`,
    );
    await chmod(hook, 0o755);
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        idleMs: 200,
        hooks: { idle: [{ hooks: [{ type: "command", command: `'${hook}'` }] }] },
      }),
    );
    // The tool is silent for 3 s: at least one idle period, whatever the machine's load.
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "sleep 3" } }] },
      { text: "still here" },
    ]);
    const result = await runAcai({
      dirs,
      args: ["-p", "build it", "--yes", ...modelArgs("chat", server)],
      baseUrl: server.url,
      timeoutMs: 30_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("still here\n");
    expect(JSON.stringify(server.requests[0]?.body)).not.toContain("STATUS CHECK");
    expect(JSON.stringify(server.requests[1]?.body)).toContain(
      "[STATUS CHECK] Are you making progress?",
    );
    const first = JSON.parse((await readFile(payloads, "utf8")).split("\n")[0] ?? "{}");
    expect(first).toMatchObject({
      event: "idle",
      hook_event_name: "idle",
      project_name: path.basename(dirs.cwd),
    });
    expect(first.idle_seconds).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(first.session_started_at))).toBe(false);
  });
});
