/** Past the session-end budget: time for the abort to reach session_end and for what is left to be killed. */
const WIND_DOWN_MARGIN_MS = 5_000;

/**
 * How long after an abort (or an exit request) acai waits for the session to
 * end before it stops waiting: the session-end budget as configured (up to
 * its 600 s maximum) plus a margin, and never less than `atLeastMs`.
 */
export function windDownMs(sessionEndBudgetMs: number, atLeastMs: number): number {
  return Math.max(atLeastMs, sessionEndBudgetMs + WIND_DOWN_MARGIN_MS);
}
