import type { RunResult } from "./types.js";

/** The result of a run that produced nothing (not started, aborted first, or canned), plus `fields`. */
export function quietRunResult(fields: Partial<RunResult> = {}): RunResult {
  return {
    exitCode: null,
    signal: null,
    stdout: "",
    stderr: "",
    timedOut: false,
    aborted: false,
    truncated: { stdout: false, stderr: false },
    durationMs: 0,
    ...fields,
  };
}
