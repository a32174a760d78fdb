/**
 * What a hook's run did, read as its answer (hooks.md §4): exit code and
 * output → Decision. Pure; shared by every way a hook runs (spawned,
 * persistent, a plugin's handler, the hook types that answer like stdout).
 */
import { meaningfulErrorLine } from "../../process/error-output.js";
import type { RunResult } from "../../process/types.js";
import { type Decision, failed } from "../contract/decision.js";
import type { HookEventName } from "../contract/definition.js";
import { decodeAnswerText } from "../contract/dialects/index.js";
import { eventRow } from "../contract/events/table.js";

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function isJsonAnswer(stdout: string): boolean {
  return stdout.trimStart().startsWith("{");
}

/** Errno codes that mean the system is out of something, not that the hook is wrong. */
const RESOURCE_SHORTAGE = /\b(EMFILE|ENFILE|EAGAIN|ENOMEM)\b/;

const SHORTAGE_MEANING: Readonly<Record<string, string>> = {
  EMFILE: "too many open files in acai",
  ENFILE: "too many open files in the system",
  EAGAIN: "too many processes",
  ENOMEM: "out of memory",
};

/** A spawn error, said plainly when the cause is a lack of resources (the hook itself may be fine). */
export function describeSpawnFailure(spawnError: string): string {
  const code = RESOURCE_SHORTAGE.exec(spawnError)?.[1];
  if (code === undefined) return spawnError;
  return `could not be started for lack of resources (${code}: ${SHORTAGE_MEANING[code]}): ${spawnError}`;
}

/**
 * Exit code + output → Decision; pure; hooks.md §4. Its texts are not capped
 * here: runHookOnce holds every kind's answer to the caps, spilling what the
 * model or the user reads (spill.ts `boundDecision`).
 */
export function decodeRunResult(
  result: RunResult,
  event: HookEventName,
  limits: { timeoutMs: number; maxOutputBytes: number },
): Decision {
  if (result.spawnError !== undefined) return failed(describeSpawnFailure(result.spawnError));
  if (result.aborted) return failed("aborted");
  if (result.timedOut) return failed(`timed out after ${limits.timeoutMs} ms`);
  if (result.truncated.stdout || result.truncated.stderr) {
    const which = result.truncated.stdout ? "output" : "error output";
    return failed(`killed: ${which} passed ${formatBytes(limits.maxOutputBytes)}`);
  }
  if (result.exitCode === null) {
    return failed(`was killed by ${result.signal ?? "a signal"}`);
  }
  const stderr = result.stderr.trim();
  if (result.exitCode === 2) {
    if (isJsonAnswer(result.stdout)) {
      const answer = decodeAnswerText(result.stdout.trim(), event);
      if (answer.action !== "failed" && answer.reason !== undefined) {
        return { action: "block", reason: answer.reason };
      }
    }
    return stderr === ""
      ? { action: "block", byExitCode: true }
      : { action: "block", reason: stderr, byExitCode: true };
  }
  if (result.exitCode !== 0) {
    const detail = stderr === "" ? " (no error output)" : `: ${meaningfulErrorLine(stderr)}`;
    return failed(`exited with ${result.exitCode}${detail}`);
  }
  const stdout = result.stdout.trim();
  if (stdout === "") return { action: "continue" };
  if (isJsonAnswer(stdout)) return decodeAnswerText(stdout, event);
  if (eventRow(event).plainStdoutIsContext) return { action: "continue", context: stdout };
  return { action: "continue", log: stdout };
}
