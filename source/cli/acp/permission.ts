/**
 * acai's questions to the user (a permission rule's ask, a hook's `ask`) as
 * ACP `session/request_permission` requests to the editor, and the editor's
 * answer back (docs/acp.md). Only "allow once" and "reject" are offered: a
 * kept rule belongs in settings, where the user sees it.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AskRequest, UserAnswer } from "../../hooks/run/activity.js";
import { toolKind, toolTitle } from "./updates.js";

const ALLOW = "allow_once";
const REJECT = "reject_once";

export function permissionRequest(
  sessionId: string,
  toolCallId: string,
  ask: AskRequest,
): acp.RequestPermissionRequest {
  const toolName = ask.toolName ?? ask.hook?.name ?? ask.event;
  return {
    sessionId,
    toolCall: {
      toolCallId,
      title: ask.toolName ? toolTitle(ask.toolName, ask.toolInput) : `${toolName}: ${ask.reason}`,
      kind: ask.toolName ? toolKind(ask.toolName) : "other",
      status: "pending",
      ...(ask.toolInput === undefined ? {} : { rawInput: ask.toolInput }),
      content: [{ type: "content", content: { type: "text", text: ask.reason } }],
    },
    options: [
      { optionId: ALLOW, name: "Allow", kind: "allow_once" },
      { optionId: REJECT, name: "Reject", kind: "reject_once" },
    ],
  };
}

/** Yes only for "allow once"; a cancelled or unknown answer is a no. */
export function permissionAnswer(response: acp.RequestPermissionResponse): UserAnswer {
  const { outcome } = response;
  return outcome.outcome === "selected" && outcome.optionId === ALLOW;
}
