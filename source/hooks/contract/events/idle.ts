/** idle: no agent output for `idle_ms` (default 30 s), once per idle period. */
import { z } from "zod";
import { defineEvent, matchNothing, OBSERVED } from "./row.js";

const payload = () => ({
  idle_seconds: z
    .number()
    .int()
    .describe("Seconds since the agent's last output (or since the session started)"),
});

export const idle = defineEvent({
  name: "idle",
  agentEvent: "idle",
  listedAfter: "pattern",
  claude: "idle",
  kind: "observe",
  subject: "none",
  honours: [],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: OBSERVED,
  payload,
  fields: (ev) => ({ idle_seconds: ev.idleSeconds }),
  matchOn: matchNothing,
  sample: () => ({ type: "idle", idleSeconds: 30 }),
  help: {
    fields: "idle_seconds",
    can: 'add context for the agent ({"context": "..."} or {"inject": "..."}); send a message',
  },
});
