/**
 * Runs the one hook `acai hooks test` names, as a session would (the same
 * runner, decoding and fold), and what acai would make of its answer.
 */

import type { Decision } from "../../hooks/contract/decision.js";
import type { HookDefinition, HookEventName } from "../../hooks/contract/definition.js";
import { exitTwoCrashNote } from "../../hooks/run/crash-note.js";
import { createHttpHookClient } from "../../hooks/run/handlers/http-client.js";
import { type Preview, previewAnswer } from "../../hooks/run/preview.js";
import { runHookOnce } from "../../hooks/run/run.js";
import type { HookRunRecord } from "../../hooks/run/run-record.js";
import type { ProcessRunner } from "../../process/types.js";
import { builtinTools } from "../../tools/registry.js";
import { oneRequestPersistentHooks } from "../commands/hook-runner.js";
import { EXIT } from "../exit-codes.js";
import type { Inventory } from "./inventory.js";
import type { Sample } from "./test-payload.js";

export interface TestRun {
  record: HookRunRecord;
  preview: Preview;
  /** 0 acai would go on, 2 it would block (or stop, or deny an `ask` headless), 1 the hook failed. */
  exitCode: number;
  /** An exit 2 that looks like a crash of the script (crash-note.ts). */
  crash: string | undefined;
}

export async function runTestHook(args: {
  hook: HookDefinition;
  event: HookEventName;
  sample: Sample;
  inventory: Inventory;
  runner: ProcessRunner;
  env: Readonly<Record<string, string>>;
}): Promise<TestRun> {
  const { hook, event, sample, inventory, env } = args;
  const { sessionId } = sample;
  const projectDir = inventory.projectDir;
  // An http hook posts for real (its URL was allowed when it loaded); the model and MCP types need a session.
  const http = hook.launch.mode === "http" ? createHttpHookClient() : undefined;
  const record = await runHookOnce(hook, event, sample.payload, {
    ...(http === undefined ? {} : { handlers: { http } }),
    runner: args.runner,
    env,
    projectDir,
    sessionId,
    // A persistent hook: its process is started for this one request, then stopped.
    ...(hook.launch.mode === "persistent"
      ? { persistent: await oneRequestPersistentHooks({ env, projectDir, sessionId }) }
      : {}),
    // A plugin's hook: its handler, in the worker the inventory loaded it in (stopped after).
    ...(inventory.plugins === undefined ? {} : { plugins: inventory.plugins }),
  }).finally(() => http?.close());
  const tools = new Map(builtinTools().map((tool) => [tool.name, tool]));
  const preview = previewAnswer({
    event,
    agentEvent: sample.sent,
    hook,
    decision: record.decision,
    validateToolInput: (name, input) => {
      const tool = tools.get(name);
      return tool ? tool.validate(input) : { ok: true, value: input };
    },
  });
  const { answered, effective } = preview;
  return {
    record,
    preview,
    exitCode: exitFor(answered, effective),
    crash: answered.action === "block" ? exitTwoCrashNote(record) : undefined,
  };
}

function exitFor(answered: Decision, effective: Decision): number {
  if (answered.action === "failed") return EXIT.error;
  return effective.action === "block" || effective.action === "stop" || effective.action === "ask"
    ? 2
    : EXIT.ok;
}
