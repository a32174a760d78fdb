import type { ProcessRunner } from "./types.js";

/**
 * `runner` with `signal` added to every run (besides the run's own): a step
 * that takes no abort signal of its own — the describe steps of hooks and
 * dynamic tools while a session is prepared — still stops at once on Ctrl-C.
 */
export function withSignal(runner: ProcessRunner, signal: AbortSignal | undefined): ProcessRunner {
  if (signal === undefined) return runner;
  return (run) =>
    runner({ ...run, signal: run.signal ? AbortSignal.any([run.signal, signal]) : signal });
}
