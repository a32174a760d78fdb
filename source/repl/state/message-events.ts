/** Messages between agents (the relay), one dim line each; another agent's text is shown inert. */
import { inertText } from "../../terminal/inert-text.js";
import { flushStream, push } from "./items.js";
import type { EventOf, ViewState } from "./view.js";

export function reduceMessageReceived(
  state: ViewState,
  event: EventOf<"message_received">,
): ViewState {
  return push(flushStream(state), {
    kind: "banner",
    tone: "dim",
    // Another agent's text: inert on the terminal.
    text: inertText(
      `message from ${event.message.from}${event.message.broadcast ? " (to all)" : ""}: ${firstLineOf(event.message.content)}`,
    ),
  });
}

export function reduceMessageSent(state: ViewState, event: EventOf<"message_sent">): ViewState {
  return push(flushStream(state), {
    kind: "banner",
    tone: "dim",
    text: inertText(sentLine(event.message)),
  });
}

function firstLineOf(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function sentLine(message: { to: string; delivered: string[]; kept: string[] }): string {
  const to = message.to === "*" ? "every running agent" : message.to;
  const where =
    message.delivered.length > 0
      ? `delivered to ${message.delivered.join(", ")}`
      : message.kept.length > 0
        ? `kept for ${message.kept.join(", ")} (not running)`
        : "no agent was running";
  return `message sent to ${to}: ${where}`;
}
