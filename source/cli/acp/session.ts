/**
 * One ACP session: a prepared acai session whose one run takes its prompts
 * from a queue (as the REPL's does). `prompt()` queues a turn and resolves
 * with its stop reason once the turn has ended and every update of it was
 * sent; `cancel()` aborts the running turn (its model stream, tools and
 * hooks); `close()` ends the session (session_end hooks within their budget).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import type { TurnInput } from "../../agent/types.js";
import type { AskRequest, InterceptedEvent, UserAnswer } from "../../hooks/run/activity.js";
import { PromptQueue } from "../../repl/prompt-queue.js";
import type { PreparedSession } from "../../session/types.js";
import { permissionAnswer, permissionRequest } from "./permission.js";
import { acpStopReason, eventUpdate } from "./updates.js";

/** What a session needs of the connection: send updates, ask the editor. */
export interface AcpClient {
  update(notification: acp.SessionNotification): Promise<void>;
  requestPermission(
    request: acp.RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<acp.RequestPermissionResponse>;
}

interface RunningPrompt {
  abort: AbortController;
  done: (reason: acp.StopReason) => void;
}

export class AcpSession {
  readonly #queue = new PromptQueue<TurnInput>();
  readonly #abort = new AbortController();
  readonly #pumping: Promise<void>;
  #running: RunningPrompt | undefined;
  /** The tool call the agent is at, for a permission request's `toolCallId`. */
  #toolCallId: string | undefined;
  /** Tool calls shown to the editor and not ended yet (a cancelled turn leaves some unrun). */
  readonly #openCalls = new Set<string>();
  #asks = 0;

  constructor(
    private readonly prepared: PreparedSession,
    private readonly client: AcpClient,
  ) {
    this.#pumping = this.#pump();
  }

  get sessionId(): string {
    return this.prepared.sessionId;
  }

  prompt(text: string, signal: AbortSignal): Promise<acp.StopReason> {
    if (this.#running) {
      throw RequestError.invalidRequest(undefined, "a prompt is already running in this session");
    }
    if (this.#queue.closed) throw RequestError.invalidRequest(undefined, "this session has ended");
    const abort = new AbortController();
    signal.addEventListener("abort", () => abort.abort(), { once: true });
    return new Promise((resolve) => {
      this.#running = { abort, done: resolve };
      this.#queue.push({ prompt: text, signal: abort.signal });
    });
  }

  cancel(): void {
    this.#running?.abort.abort(new Error("cancelled by the editor"));
  }

  /** The session's `askUser`: the editor answers. */
  async ask(request: AskRequest, signal: AbortSignal): Promise<UserAnswer> {
    this.#asks += 1;
    const toolCallId = request.toolName
      ? (this.#toolCallId ?? `ask-${this.#asks}`)
      : `ask-${this.#asks}`;
    const response = await this.client.requestPermission(
      permissionRequest(this.sessionId, toolCallId, request),
      signal,
    );
    return permissionAnswer(response);
  }

  async close(): Promise<void> {
    this.cancel();
    this.#queue.close(true);
    await this.#pumping;
  }

  async #pump(): Promise<void> {
    try {
      const events = this.prepared.run({
        prompts: this.#queue,
        signal: this.#abort.signal,
        endReason: () => "user_exit",
      });
      for await (const event of events) await this.#onEvent(event);
    } finally {
      this.#finish("cancelled");
      this.#queue.close(true);
    }
  }

  async #onEvent(event: InterceptedEvent): Promise<void> {
    const main = !("agentId" in event) || event.agentId === undefined;
    if (main && event.type === "tool_call_start") {
      this.#toolCallId = event.toolCallId;
      this.#openCalls.add(event.toolCallId);
    }
    if (main && (event.type === "tool_call_end" || event.type === "tool_call_error")) {
      this.#openCalls.delete(event.toolCallId);
    }
    const update = eventUpdate(event);
    if (update) await this.client.update({ sessionId: this.sessionId, update });
    if (main && event.type === "turn_end") {
      await this.#closeUnran();
      const cancelled = this.#running?.abort.signal.aborted ?? false;
      this.#finish(acpStopReason(event.stopReason, cancelled));
    }
  }

  /** Calls the turn ended before they ran (cancelled, or a stop): failed, so the editor does not wait on them. */
  async #closeUnran(): Promise<void> {
    for (const toolCallId of this.#openCalls) {
      await this.client.update({
        sessionId: this.sessionId,
        update: {
          sessionUpdate: "tool_call_update",
          toolCallId,
          status: "failed",
          content: [
            { type: "content", content: { type: "text", text: "not run: the turn ended" } },
          ],
        },
      });
    }
    this.#openCalls.clear();
  }

  #finish(reason: acp.StopReason): void {
    const running = this.#running;
    this.#running = undefined;
    this.#toolCallId = undefined;
    running?.done(reason);
  }
}
