import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FakeOpenAIServer } from "../support/fake-openai-server.js";
import { type AcaiDirs, type AcaiResult, runAcai } from "../support/run-acai.js";

export type Api = "chat" | "responses";

/**
 * Arguments that make acai talk to the fake server over one wire API:
 * `--base-url` servers speak chat completions; `openai-responses:` speaks the Responses API.
 */
export function modelArgs(api: Api, server: FakeOpenAIServer): string[] {
  return api === "chat"
    ? ["--model", "openai:fake-model", "--base-url", server.url]
    : ["--model", "openai-responses:fake-model", "--base-url", server.url];
}

/** Every JSON line of stdout. */
export function jsonLines(stdout: string): Array<Record<string, unknown> & { type: string }> {
  return stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown> & { type: string });
}

/** The transcript files under ACAI_HOME/transcripts. */
export async function transcripts(acaiHome: string): Promise<string[]> {
  const dir = path.join(acaiHome, "transcripts");
  try {
    return (await readdir(dir)).map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

export async function readJsonl(file: string): Promise<unknown[]> {
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as unknown);
}

/** Text of the tool results the model was sent, over either API. */
export function toolResultsSent(body: Record<string, unknown> | undefined): string[] {
  const out: string[] = [];
  const messages = (body?.messages ?? []) as Array<Record<string, unknown>>;
  for (const message of messages) {
    if (message.role === "tool") out.push(String(message.content));
  }
  const input = (body?.input ?? []) as Array<Record<string, unknown>>;
  if (Array.isArray(input)) {
    for (const item of input) {
      if (item.type === "function_call_output") out.push(String(item.output));
    }
  }
  return out;
}

/** No stack trace in what the user sees. */
export const STACK_TRACE = /\n\s+at .+\(.+:\d+:\d+\)|\n\s+at file:\/\//;

/**
 * `acai -p go --yes --output-format stream-json` with the replay model
 * playing `turns` (written to the project's replay.json), and its JSON lines
 * read as `Line`.
 */
export async function runReplayStream<Line>(
  dirs: AcaiDirs,
  turns: unknown[],
  options: { timeoutMs?: number } = {},
): Promise<{ run: AcaiResult; lines: Line[] }> {
  await writeFile(path.join(dirs.cwd, "replay.json"), JSON.stringify({ turns }));
  const args = ["-p", "go", "--model", "replay:replay.json", "--yes"];
  const run = await runAcai({
    args: [...args, "--output-format", "stream-json"],
    dirs,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  return { run, lines: jsonLines(run.stdout) as Line[] };
}
