/** stop_failure (Claude Code's StopFailure): the turn ended because the model request failed. */
import { z } from "zod";
import { promptIdField } from "./fields.js";
import { promptId } from "./payload-parts.js";
import { defineEvent, OBSERVED } from "./row.js";

const payload = () => ({
  error: z
    .enum([
      "rate_limit",
      "authentication_failed",
      "billing_error",
      "invalid_request",
      "server_error",
      "unknown",
    ])
    .describe("What kind of failure; what matchers see"),
  error_details: z.string().describe("The error as the user reads it"),
  last_assistant_message: z.string().describe('The turn\'s last answered text ("" when none)'),
  turn: z.number().int(),
  ...promptId(),
});

export const stopFailure = defineEvent({
  name: "stop_failure",
  agentEvent: "turn_failed",
  listedAfter: "before_stop",
  claude: "StopFailure",
  kind: "observe",
  subject: "source",
  honours: [],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: OBSERVED,
  payload,
  fields: (ev) => ({
    error: ev.error,
    error_details: ev.message,
    last_assistant_message: ev.lastAssistantMessage,
    turn: ev.turn,
    ...promptIdField(ev),
  }),
  // Claude Code matches StopFailure on the error type.
  matchOn: (ev) => ({ source: ev.error }),
  sample: () => ({
    type: "turn_failed",
    turn: 1,
    error: "rate_limit",
    message:
      "the model server is rate-limiting requests (429): wait a moment and retry, or check your quota",
    lastAssistantMessage: "",
  }),
  help: {
    fields:
      "error (rate_limit | authentication_failed | billing_error | invalid_request | server_error | unknown), error_details, last_assistant_message",
    can: "observe (the turn is over; output and exit code are ignored)",
    matcher: { source: "rate_limit" },
  },
});
