import type { HookEventName } from "../../hooks/contract/definition.js";
import type { HookRef } from "../../hooks/run/activity.js";
import type { ViewState } from "./view.js";

/**
 * What the newest running tool is really waiting for. The agent announces a
 * call before its `before_tool` hooks run (and before a hook's `ask` is
 * answered): until then the tool has not started, so its block says so.
 */
export function toolGate(
  view: Pick<ViewState, "tools" | "hooks">,
  ask: { hook?: HookRef; event: HookEventName } | null,
): { toolCallId: string; label: string } | undefined {
  const tool = view.tools.findLast((t) => t.status === "running");
  if (!tool) return undefined;
  if (ask?.event === "permission_request") {
    return { toolCallId: tool.toolCallId, label: "waiting for your permission" };
  }
  const gating = view.hooks.filter(
    (h) => h.event === "before_tool" || h.event === "permission_request",
  );
  if (gating.length === 0) return undefined;
  const names = gating.map((h) => h.hook.name).join(", ");
  return {
    toolCallId: tool.toolCallId,
    label: `waiting for ${gating.length === 1 ? "hook" : "hooks"} ${names}`,
  };
}
