/**
 * Steps the agent's generator for the interceptor, and lets `notify` wake the
 * loop while the agent works or waits for a prompt (what it raised is yielded
 * then, not after the agent's next event).
 */
import type { AgentEvent } from "../../../agent/events.js";
import type { Verdict } from "../../../agent/verdicts.js";
import type { AgentRun } from "./options.js";

export interface Pump {
  /** Resumes the agent with the verdict; settles with its step, or undefined when woken first. */
  next(verdict: Verdict | undefined): Promise<IteratorResult<AgentEvent, void> | undefined>;
  /** After a wake: waits again for the same step. */
  again(): Promise<IteratorResult<AgentEvent, void> | undefined>;
  /** Wakes the loop if it is waiting for the agent. */
  wake(): void;
  /** Closes the agent's generator; if the consumer left while the agent was busy, once it settles. */
  close(): Promise<void>;
}

export function createPump(run: AgentRun): Pump {
  /** The agent's `next()` while it has not settled (the consumer may leave meanwhile). */
  let inFlight: Promise<IteratorResult<AgentEvent, void>> | undefined;
  /**
   * The latest step, once the agent gave it. A wake may have answered the wait
   * first; `again()` then gets the step from here (it is never lost, and a
   * wake before the step settles cannot turn `again()` into an endless "woken").
   */
  let settled: Promise<IteratorResult<AgentEvent, void>> | undefined;
  let wake: (() => void) | undefined;
  /** A wake that came before the loop waited (it is not lost: the next wait ends at once). */
  let early = false;
  const stepOrWake = (
    next: Promise<IteratorResult<AgentEvent, void>>,
  ): Promise<IteratorResult<AgentEvent, void> | undefined> =>
    new Promise((resolve, reject) => {
      wake = () => {
        wake = undefined;
        resolve(undefined);
      };
      if (early) {
        early = false;
        wake();
      }
      next.then((step) => {
        wake = undefined;
        if (inFlight === next) {
          inFlight = undefined;
          settled = next;
        }
        resolve(step);
      }, reject);
    });
  return {
    next(verdict) {
      const next = run.next(verdict);
      inFlight = next;
      settled = undefined;
      return stepOrWake(next);
    },
    again() {
      const step = inFlight ?? settled;
      return step === undefined ? Promise.resolve(undefined) : stepOrWake(step);
    },
    wake: () => {
      if (wake) wake();
      else early = true;
    },
    async close() {
      const pending = inFlight;
      if (pending === undefined) await run.return(undefined);
      else {
        // return() would wait for that next(): the agent is closed once it settles.
        void pending.then(() => run.return(undefined)).catch(() => {});
      }
    },
  };
}
