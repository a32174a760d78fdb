import type { HookEventName, HookScope, HookSourceKind } from "../hooks/contract/definition.js";
import type { HookOutcome } from "../hooks/run/activity.js";
import type { PreparedSession } from "../session/types.js";

/** What `/hooks` shows: a frozen picture of the session's hooks when the command ran. */
interface HookRow {
  id: string;
  name: string;
  scope: HookScope;
  sourceKind: HookSourceKind;
  file: string;
  events: HookEventName[];
  matcher: string;
  trust: "trusted" | "off";
  last?: { outcome: HookOutcome; event: HookEventName; at: number; detail?: string };
}

interface BrokenRow {
  name?: string;
  file: string;
  scope: HookScope;
  reason: string;
}

export interface HooksSnapshot {
  rows: HookRow[];
  broken: BrokenRow[];
  projectHooksEnabled: boolean;
  /** The project has hooks or tools of its own (else "off" would say nothing true). */
  projectHooksExist: boolean;
}

interface LastDecision {
  outcome: HookOutcome;
  event: HookEventName;
  at: number;
  detail?: string;
}

function describeMatcher(matcher: Record<string, string | undefined>): string {
  const parts = Object.entries(matcher)
    .filter(([, value]) => value !== undefined && value !== "")
    .map(([key, value]) => `${key}=${value}`);
  return parts.length ? parts.join(" ") : "*";
}

export function buildHooksSnapshot(
  hooks: PreparedSession["hooks"],
  last: Readonly<Record<string, LastDecision>>,
  projectHooksExist = true,
): HooksSnapshot {
  return {
    projectHooksEnabled: hooks.projectHooksEnabled,
    projectHooksExist,
    rows: hooks.loaded.map((hook) => {
      const decision = last[hook.id];
      return {
        id: hook.id,
        name: hook.name,
        scope: hook.scope,
        sourceKind: hook.sourceKind,
        file: hook.file,
        events: hook.events,
        matcher: describeMatcher({ ...hook.matcher }),
        // User hooks are always trusted; a loaded project hook runs only when its set is trusted.
        trust: hook.scope === "user" || hooks.projectHooksEnabled ? "trusted" : "off",
        ...(decision
          ? {
              last: {
                outcome: decision.outcome,
                event: decision.event,
                at: decision.at,
                ...(decision.detail ? { detail: decision.detail } : {}),
              },
            }
          : {}),
      };
    }),
    broken: hooks.broken.map((b) => ({
      file: b.file,
      scope: b.scope,
      reason: b.reason,
      ...(b.name ? { name: b.name } : {}),
    })),
  };
}
