/**
 * agent-relay's answer (`inject`, `suppress`, `stop: true`, `sendMessage`) is
 * recognised but not read yet: its events and messaging come with the relay
 * dialect (issue 11). Until then such an answer is a hook failure naming the
 * fields — a warning with `failure: "open"` — never a silent continue
 * (hooks.md §4: no answer is dropped silently). The hook's `log` is kept.
 */
import { type Decision, failed } from "../decision.js";
import type { AnswerDialect } from "./common.js";

/** The relay fields acai does not act on yet, in the order they are named. */
const RELAY_FIELDS = ["inject", "suppress", "sendMessage", "stop"] as const;

function relayFieldsOf(answer: Readonly<Record<string, unknown>>): string[] {
  return RELAY_FIELDS.filter((key) =>
    // acai's own `stop` is an action; relay's is a boolean field.
    key === "stop" ? typeof answer.stop === "boolean" : answer[key] !== undefined,
  );
}

function decodeRelay(answer: Readonly<Record<string, unknown>>): Decision {
  const fields = relayFieldsOf(answer)
    .map((key) => `"${key}"`)
    .join(", ");
  const log = typeof answer.log === "string" && answer.log !== "" ? { log: answer.log } : {};
  return failed(
    `answered in agent-relay's dialect (${fields}), which acai does not read yet, so the answer is ignored; for text the model should see, answer {"context": "…"} (acai) or {"additionalContext": "…"} (Claude Code)`,
    log,
  );
}

export const relayDialect: AnswerDialect = {
  name: "agent-relay",
  detect: (answer) => relayFieldsOf(answer).length > 0,
  decode: decodeRelay,
};
