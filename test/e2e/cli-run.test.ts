import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  startFakeOpenAI,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import {
  type Api,
  jsonLines,
  modelArgs,
  readJsonl,
  toolResultsSent,
  transcripts,
} from "./helpers.js";

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

/** Write a file, read it back, answer: two real tool calls, three model requests. */
function writeReadAnswer(file: string): FakeTurn[] {
  return [
    {
      text: "Writing the note.",
      toolCalls: [{ name: "Write", input: { file_path: file, content: "hello from acai\n" } }],
    },
    { toolCalls: [{ name: "Read", input: { file_path: file } }] },
    { text: "The note says: hello from acai." },
  ];
}

describe.each<Api>(["chat", "responses"])("acai -p over the %s API", (api) => {
  it("text: runs Write then Read then answers, streaming the text to stdout", async () => {
    const file = path.join(dirs.cwd, "note.txt");
    server = await startFakeOpenAI(writeReadAnswer(file));
    const result = await runAcai({
      // An allow rule for the one file it writes: acai -p asks nobody, and needs no --yes.
      args: [
        "-p",
        "write a note and read it back",
        "--allowedTools",
        "Edit(note.txt)",
        ...modelArgs(api, server),
      ],
      dirs,
      baseUrl: server.url,
    });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("Writing the note.\nThe note says: hello from acai.\n");
    expect(await readFile(file, "utf8")).toBe("hello from acai\n");
    expect(server.requests.map((r) => r.api)).toEqual([api, api, api]);
    // The model saw the real results of both tools.
    const afterWrite = toolResultsSent(server.requests[1]?.body);
    expect(afterWrite.join("\n")).toMatch(/note\.txt/);
    const afterRead = toolResultsSent(server.requests[2]?.body);
    expect(afterRead.at(-1)).toContain("hello from acai");
    // The prompt went to the model.
    expect(server.requests[0]?.rawBody).toContain("write a note and read it back");
  });

  it("json: one result object with text, usage, stop reason, session id", async () => {
    const file = path.join(dirs.cwd, "note.txt");
    server = await startFakeOpenAI(writeReadAnswer(file));
    const result = await runAcai({
      args: ["-p", "go", "--yes", "--output-format", "json", ...modelArgs(api, server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines).toHaveLength(1);
    const res = lines[0];
    expect(res).toMatchObject({
      type: "result",
      is_error: false,
      exit_code: 0,
      text: "The note says: hello from acai.",
      stop_reason: "end_turn",
      num_turns: 1,
      num_steps: 3,
      usage: { input_tokens: 30, output_tokens: 15, total_tokens: 45 },
    });
    expect(res?.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof res?.duration_ms).toBe("number");
    expect(await readFile(file, "utf8")).toBe("hello from acai\n");
  });

  it("stream-json: one JSON object per line for every event, ending with the result", async () => {
    const file = path.join(dirs.cwd, "note.txt");
    server = await startFakeOpenAI(writeReadAnswer(file));
    const result = await runAcai({
      args: ["-p", "go", "--yes", "--output-format", "stream-json", ...modelArgs(api, server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode).toBe(0);
    const lines = jsonLines(result.stdout);
    // The Write asked (default mode) and --yes answered.
    expect(lines.filter((l) => l.type === "permission_request").map((l) => l.toolName)).toEqual([
      "Write",
    ]);
    const types = lines.map((l) => l.type);
    expect(types[0]).toBe("session_start");
    expect(types.at(-2)).toBe("session_end");
    expect(types.at(-1)).toBe("result");
    const tools = lines.filter((l) => l.type === "tool_call_end").map((l) => l.toolName);
    expect(tools).toEqual(["Write", "Read"]);
    expect(types.filter((t) => t === "model_request")).toHaveLength(3);
    const text = lines
      .filter((l) => l.type === "text_delta")
      .map((l) => l.text)
      .join("");
    expect(text).toBe("Writing the note.The note says: hello from acai.");
  });
});

describe("acai -p input and limits", () => {
  it("reads the prompt from stdin when -p has no value", async () => {
    server = await startFakeOpenAI([{ text: "pong" }]);
    const result = await runAcai({
      args: ["-p", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
      stdin: "ping from stdin\n",
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("pong\n");
    expect(server.requests[0]?.rawBody).toContain("ping from stdin");
  });

  it("reads the prompt from piped stdin without -p", async () => {
    server = await startFakeOpenAI([{ text: "pong" }]);
    const result = await runAcai({
      args: [...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
      stdin: "piped prompt",
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("pong\n");
    expect(server.requests[0]?.rawBody).toContain("piped prompt");
  });

  it("--max-steps bounds the loop", async () => {
    const loop: FakeTurn = { toolCalls: [{ name: "Glob", input: { pattern: "*" } }] };
    server = await startFakeOpenAI(() => loop);
    const result = await runAcai({
      args: [
        "-p",
        "loop",
        "--max-steps",
        "2",
        "--output-format",
        "json",
        ...modelArgs("chat", server),
      ],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode).toBe(0);
    expect(server.requests.filter((r) => r.api === "chat")).toHaveLength(2);
    expect(jsonLines(result.stdout)[0]).toMatchObject({ stop_reason: "max_steps", num_steps: 2 });
  });

  it("writes a JSONL transcript under ACAI_HOME/transcripts", async () => {
    server = await startFakeOpenAI([{ text: "hi" }]);
    const result = await runAcai({
      args: ["-p", "hello", "--output-format", "json", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode).toBe(0);
    const sessionId = jsonLines(result.stdout)[0]?.session_id as string;
    const files = await transcripts(dirs.acaiHome);
    expect(files).toHaveLength(1);
    expect(path.basename(files[0] ?? "")).toMatch(
      new RegExp(`^\\d{4}-\\d{2}-\\d{2}-${sessionId}\\.jsonl$`),
    );
    const lines = (await readJsonl(files[0] ?? "")) as Array<{ event?: { type: string } }>;
    const types = lines.map((l) => l.event?.type).filter(Boolean);
    expect(types[0]).toBe("session_start");
    expect(types).toContain("turn_end");
    expect(types.at(-1)).toBe("session_end");
  });
});
