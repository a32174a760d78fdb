import type { SessionEndReason } from "./event-data.js";
import type { AgentEvent } from "./events.js";
import { gateFlow } from "./gate-flow.js";
import { RAISES } from "./raises.js";
import type { SessionContext } from "./session-context.js";
import { providerOf } from "./session-totals.js";
import type { RunInput } from "./types.js";
import type { Verdict } from "./verdicts.js";

/**
 * The `session_start` gate. Returns why the session ends before its first
 * turn, if it does: the run was aborted, a hook refused to start it
 * ("error"), or a hook stopped it.
 */
export async function* startSession(
  session: SessionContext,
  source: NonNullable<RunInput["source"]>,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, SessionEndReason | undefined, Verdict | undefined> {
  const { options } = session;
  const start = yield* session.emit({
    type: RAISES.session_start,
    sessionId: options.sessionId,
    model: options.modelId,
    cwd: options.cwd,
    transcriptPath: options.transcriptPath,
    source,
    modelProvider: providerOf(options.model),
    systemPrompt: session.system,
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    ...(options.sessionArgs === undefined ? {} : { args: options.sessionArgs }),
  });
  const flow = gateFlow(start, signal);
  switch (flow.kind) {
    case "end_turn":
      return "aborted";
    case "end_session":
      yield* session.emit({
        type: "warning",
        message: `A hook stopped the session: ${flow.end.message}`,
        source: "session_start",
      });
      return "hook_stop";
    case "go_on":
      break;
    default:
      return flow satisfies never;
  }
  if (flow.verdict?.action === "block") {
    yield* session.emit({
      type: "error",
      message: `A session_start hook refused to start the session: ${flow.verdict.reason}`,
    });
    return "error";
  }
  for (const file of options.instructionFiles ?? []) {
    yield* session.emit({ type: RAISES.instructions_loaded, file, loadReason: "session_start" });
  }
  return undefined;
}
