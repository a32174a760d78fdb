/**
 * The verifier of an `agent` hook: a nested `Agent` with read-only tools
 * (Read, Glob, Grep), bounded steps, the hook's time limit, and the
 * session's permission policy (a read the rules deny is denied to it too;
 * a question has nobody to answer it, so it is denied). Its events reach no
 * hook (it runs inside one): this loop drives it, answering no gate. Its
 * final text is the verdict (hooks/run/handlers/judged.ts reads it).
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import type { LanguageModel } from "ai";
import { Agent } from "../agent/agent.js";
import type { PermissionPolicy } from "../permissions/decide.js";
import type { ProcessRunner } from "../process/types.js";
import type { Tool } from "../tools/types.js";

/** The tools a verifier may use: they read, never write or run. */
const VERIFIER_TOOLS: readonly string[] = ["Read", "Glob", "Grep"];

export interface VerifierOptions {
  model: LanguageModel;
  modelId: string;
  /** The session's tools; only VERIFIER_TOOLS of them are given. */
  tools: Iterable<Tool>;
  cwd: string;
  env: Readonly<Record<string, string>>;
  runner: ProcessRunner;
  permissions: PermissionPolicy;
  sessionId: string;
  /** The session's transcript: a verifier's is `<it without .jsonl>/verifiers/agent-<id>.jsonl`. */
  transcriptPath: string;
  system: string;
  prompt: string;
  maxSteps: number;
  signal: AbortSignal;
}

export async function runVerifier(options: VerifierOptions): Promise<string> {
  const tools = [...options.tools].filter((tool) => VERIFIER_TOOLS.includes(tool.name));
  const base = path.basename(options.transcriptPath, ".jsonl");
  const transcriptPath = path.join(
    path.dirname(options.transcriptPath),
    base,
    "verifiers",
    `agent-${randomUUID()}.jsonl`,
  );
  const agent = new Agent({
    model: options.model,
    modelId: options.modelId,
    tools,
    cwd: options.cwd,
    env: options.env,
    runner: options.runner,
    permissions: options.permissions,
    sessionId: options.sessionId,
    transcriptPath,
    systemPrompt: options.system,
    maxSteps: options.maxSteps,
    maxStopBlocks: 1,
  });
  let text = "";
  let ended: string | undefined;
  for await (const event of agent.run({
    prompts: [{ prompt: options.prompt }],
    signal: options.signal,
  })) {
    if (event.type === "turn_end") {
      text = event.text;
      if (event.stopReason !== "end_turn") ended = event.stopReason;
    }
  }
  options.signal.throwIfAborted();
  if (ended !== undefined && text.trim() === "") {
    throw new Error(`the verifier ended without an answer (${ended})`);
  }
  return text;
}
