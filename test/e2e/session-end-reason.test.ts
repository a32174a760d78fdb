/**
 * `acai -p`'s session_end reason: "error" when the turn ended in a provider
 * error, so a session_end hook can tell a failed run; "completed" otherwise.
 */
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { jsonLines, modelArgs } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-end-reason-");
  // A user-level (trusted) session_end hook that records the reason it was given.
  const script = path.join(dirs.root, "end.sh");
  await writeFile(script, `#!/bin/sh\ncat >> '${path.join(dirs.root, "ends.jsonl")}'\nexit 0\n`);
  await chmod(script, 0o755);
  await writeFile(
    path.join(dirs.acaiHome, "settings.json"),
    JSON.stringify({
      hooks: { SessionEnd: [{ hooks: [{ type: "command", command: `'${script}'` }] }] },
    }),
  );
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

async function hookReasons(): Promise<unknown[]> {
  const text = await readFile(path.join(dirs.root, "ends.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { reason: unknown }).reason);
}

function run(s: FakeOpenAIServer) {
  return runAcai({
    args: ["-p", "hi", "--output-format", "stream-json", ...modelArgs("chat", s)],
    dirs,
    baseUrl: s.url,
    timeoutMs: 30_000,
  });
}

describe("acai -p session_end reason", () => {
  it("is error after a provider error (401), for the stream and for session_end hooks", async () => {
    server = await startFakeOpenAI([{ status: 401, errorMessage: "Incorrect API key provided" }]);
    const result = await run(server);
    expect(result.exitCode).toBe(1);
    const lines = jsonLines(result.stdout);
    expect(lines.find((l) => l.type === "turn_end")).toMatchObject({ stopReason: "error" });
    expect(lines.find((l) => l.type === "session_end")).toMatchObject({ reason: "error" });
    expect(lines.at(-1)).toMatchObject({ type: "result", exit_code: 1, stop_reason: "error" });
    expect(await hookReasons()).toEqual(["error"]);
  });

  it("is completed after a turn that went well", async () => {
    server = await startFakeOpenAI([{ text: "fine" }]);
    const result = await run(server);
    expect(result.exitCode).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines.find((l) => l.type === "session_end")).toMatchObject({ reason: "completed" });
    expect(await hookReasons()).toEqual(["completed"]);
  });
});
