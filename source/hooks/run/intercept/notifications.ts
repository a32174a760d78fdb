/**
 * The notification side channel: `notification` hooks run when a hook answers
 * `ask` (before it is answered, in every mode) and when the consumer calls
 * `notify` (the REPL's idle prompt). They run beside the loop, as async hooks
 * do: nobody waits for them (an ask is not held up), session end waits for
 * them within its budget. The `notification` event itself is yielded to the
 * consumer and passed to `onNotification` (the session's transcript).
 */

import { RAISES } from "../../../agent/raises.js";
import type { AskRequest, HookActivityEvent } from "../activity.js";
import type { NotificationEvent } from "../chain.js";
import { compareHooks, plan } from "../plan.js";
import { runBeside } from "./background.js";
import type { RunContext } from "./run-context.js";

export interface Notifications {
  /** For an `ask`: raises the notification (to be yielded at once) and starts its hooks. */
  onAsk(request: AskRequest): NotificationEvent | undefined;
  /**
   * For the consumer's `notify`: raises the notification into the pending
   * activity, calls `wake`, and resolves with the hooks' activity once they are done.
   */
  notify(message: string, notificationType: string, wake: () => void): Promise<HookActivityEvent[]>;
}

export function createNotifications(ctx: RunContext): Notifications {
  return {
    onAsk(request) {
      const message =
        request.hook === undefined
          ? `acai needs your permission to use ${request.toolName ?? request.event} (${request.reason})`
          : `Hook ${request.hook.name} asks: ${request.reason}`;
      const event = raise(ctx, message, "permission_prompt");
      if (event)
        void runNotificationHooks(ctx, event, (activity) => ctx.pendingActivity.push(activity));
      return event;
    },
    async notify(message, notificationType, wake) {
      const event = raise(ctx, message, notificationType);
      if (event === undefined) return [];
      ctx.pendingActivity.push(event);
      wake();
      const activity: HookActivityEvent[] = [];
      await runNotificationHooks(ctx, event, (a) => activity.push(a));
      return activity;
    },
  };
}

/** A notification event, told to `onNotification`; none once the session is aborted. */
function raise(
  ctx: RunContext,
  message: string,
  notificationType: string,
): NotificationEvent | undefined {
  if (ctx.stopAll.signal.aborted) return undefined;
  const event: NotificationEvent = { type: RAISES.notification, message, notificationType };
  ctx.options.onNotification?.(event);
  return event;
}

/** Runs the matching notification hooks beside the loop; their activity goes to `into` as it happens. */
function runNotificationHooks(
  ctx: RunContext,
  agentEvent: NotificationEvent,
  into: (activity: HookActivityEvent) => void,
): Promise<void> {
  if (ctx.stopAll.signal.aborted) return Promise.resolve();
  const planned = plan(ctx.index, "notification", agentEvent);
  if (planned === undefined) return Promise.resolve();
  // Here every hook runs beside the loop, async or not: all of them, in plan order.
  const hooks = [...planned.observers, ...planned.async].sort(compareHooks);
  return runBeside(ctx, { event: "notification", agentEvent, hooks, into });
}
