/**
 * The payload fields of issue 10 item 5, as a real hook receives them from
 * `acai -p`: before_model's system prompt, tools and message count;
 * session_start's model provider; session_end's totals; before_stop's
 * stop_reason, which also fires when --max-steps is reached.
 */
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-payload-facts-");
  const script = path.join(dirs.root, "record.sh");
  await writeFile(
    script,
    `#!/bin/sh\ncat >> '${path.join(dirs.root, "payloads.jsonl")}'\necho >> '${path.join(dirs.root, "payloads.jsonl")}'\nexit 0\n`,
  );
  await chmod(script, 0o755);
  const hook = [{ hooks: [{ type: "command", command: `'${script}'` }] }];
  await writeFile(
    path.join(dirs.acaiHome, "settings.json"),
    JSON.stringify({
      hooks: { SessionStart: hook, before_model: hook, Stop: hook, SessionEnd: hook },
    }),
  );
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

async function payloads(): Promise<Record<string, unknown>[]> {
  const text = await readFile(path.join(dirs.root, "payloads.jsonl"), "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("payload facts through acai -p", () => {
  it("before_model, session_start, session_end and before_stop at --max-steps", async () => {
    server = await startFakeOpenAI([
      {
        toolCalls: [{ name: "Read", input: { file_path: "missing.txt" } }],
        usage: { inputTokens: 40, outputTokens: 4 },
      },
    ]);
    const result = await runAcai({
      args: [
        "-p",
        "read it",
        "--max-steps",
        "1",
        "--system-prompt",
        "Be brief.",
        ...modelArgs("chat", server),
      ],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode).not.toBe(null);
    const all = await payloads();
    const of = (event: string) => all.filter((p) => p.event === event);
    expect(of("session_start")[0]).toMatchObject({ source: "startup", model_provider: "openai" });
    expect(of("before_model")[0]).toMatchObject({ system_prompt: "Be brief.", message_count: 1 });
    expect(of("before_model")[0]?.available_tools).toEqual(
      expect.arrayContaining(["Bash", "Read", "Write", "Edit", "Glob", "Grep"]),
    );
    expect(of("before_stop")).toHaveLength(1);
    expect(of("before_stop")[0]).toMatchObject({ stop_reason: "max_steps" });
    expect(of("session_end")[0]).toMatchObject({
      reason: "completed",
      total_steps: 1,
      total_tool_calls: 1,
      usage: { input_tokens: 40, output_tokens: 4, total_tokens: 44 },
    });
    expect(typeof of("session_end")[0]?.duration_ms).toBe("number");
  });
});
