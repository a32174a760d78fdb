/**
 * One run of a callback hook (a function a program passed to `query()`,
 * docs/sdk.md): called in process with the payload a command hook would read,
 * within the hook's timeout and the run's abort signal; its answer is decoded
 * like a command hook's stdout, so it takes part in the chain like any hook.
 * A callback that throws, times out or answers something that is not JSON
 * fails, with the hook's failure policy.
 */
import { failed } from "../../contract/decision.js";
import type { CallbackLaunch, HookDefinition, HookEventName } from "../../contract/definition.js";
import { decodeRunResult } from "../decode.js";
import type { HookRunRecord } from "../run-record.js";
import { handlerRecord } from "./record.js";

type Outcome =
  | { kind: "answered"; text: string }
  | { kind: "threw"; error: string }
  | { kind: "timed_out" }
  | { kind: "aborted" };

export async function runCallbackHook(
  hook: HookDefinition,
  launch: CallbackLaunch,
  event: HookEventName,
  payload: unknown,
  options: { signal?: AbortSignal; maxOutputBytes: number },
): Promise<HookRunRecord> {
  const started = performance.now();
  const sent = JSON.stringify(payload) ?? "";
  const outcome = await callWithin(hook, launch, payload, options.signal);
  const durationMs = performance.now() - started;
  const answer = outcome.kind === "answered" ? outcome.text : "";
  return handlerRecord(hook, event, {
    sent,
    answer,
    durationMs,
    timedOut: outcome.kind === "timed_out",
    aborted: outcome.kind === "aborted",
    decision: decisionOf(outcome, hook, event, durationMs, options.maxOutputBytes),
  });
}

async function callWithin(
  hook: HookDefinition,
  launch: CallbackLaunch,
  payload: unknown,
  signal: AbortSignal | undefined,
): Promise<Outcome> {
  const controller = new AbortController();
  const stop = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", stop, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`timed out after ${hook.timeoutMs} ms`));
      resolve({ kind: "timed_out" });
    }, hook.timeoutMs);
  });
  const aborted = new Promise<Outcome>((resolve) => {
    if (signal?.aborted) resolve({ kind: "aborted" });
    signal?.addEventListener("abort", () => resolve({ kind: "aborted" }), { once: true });
  });
  const input = payload as Record<string, unknown>;
  const toolUseId = typeof input.tool_use_id === "string" ? input.tool_use_id : undefined;
  const called = (async (): Promise<Outcome> => {
    try {
      const answer = await launch.callback(input, toolUseId, { signal: controller.signal });
      return { kind: "answered", text: answer == null ? "" : JSON.stringify(answer) };
    } catch (error) {
      return { kind: "threw", error: error instanceof Error ? error.message : String(error) };
    }
  })();
  try {
    return await Promise.race([called, timedOut, aborted]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
  }
}

function decisionOf(
  outcome: Outcome,
  hook: HookDefinition,
  event: HookEventName,
  durationMs: number,
  maxOutputBytes: number,
) {
  switch (outcome.kind) {
    case "answered":
      return decodeRunResult(
        {
          exitCode: 0,
          signal: null,
          stdout: outcome.text,
          stderr: "",
          timedOut: false,
          aborted: false,
          truncated: { stdout: false, stderr: false },
          durationMs,
        },
        event,
        { timeoutMs: hook.timeoutMs, maxOutputBytes },
      );
    case "threw":
      return failed(`threw: ${outcome.error}`);
    case "timed_out":
      return failed(`timed out after ${hook.timeoutMs} ms`);
    case "aborted":
      return failed("aborted");
    default:
      return outcome satisfies never;
  }
}
