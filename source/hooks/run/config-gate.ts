/**
 * The gate when a settings file of the session changed (`config_change`,
 * Claude Code's ConfigChange): raised by the session's settings watcher beside
 * the loop (beside-gate.ts); the session re-applies what it can of the change
 * only when the verdict says so (docs/hooks.md "When settings change"). Fails
 * closed: a block, a stop (a block here), an ask nobody allowed, a hook that
 * fails closed, or a run that is ending keeps the settings the session has.
 */
import type { AgentEvent } from "../../agent/events.js";
import { type BesideGateEnd, runBesideGate } from "./beside-gate.js";
import type { RunContext } from "./intercept/run-context.js";

export type ConfigGateEvent = Extract<AgentEvent, { type: "config_change" }>;

/** Apply the change (what the session can of it), or keep the settings it has (why). */
export type ConfigVerdict = { apply: true } | { apply: false; reason: string };

/** Runs `event`'s hooks beside the loop (their activity goes out after `wake`); resolves with the verdict. */
export async function gateConfig(
  ctx: RunContext,
  event: ConfigGateEvent,
  wake: () => void,
): Promise<ConfigVerdict> {
  return configVerdictOf(await runBesideGate(ctx, event, wake));
}

function configVerdictOf(end: BesideGateEnd): ConfigVerdict {
  switch (end.kind) {
    case "open":
      return { apply: true };
    case "ending":
      return { apply: false, reason: "the session is ending" };
    case "failed":
      return { apply: false, reason: `its config_change hooks could not run (${end.error})` };
    case "chain": {
      const last = end.result.end;
      switch (last.kind) {
        case "block":
        case "stop":
        case "defer":
          return { apply: false, reason: last.reason };
        case "continue":
        case "allow":
        case "retry":
          return { apply: true };
        default:
          return last satisfies never;
      }
    }
    default:
      return end satisfies never;
  }
}
