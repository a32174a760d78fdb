import type { ModelMessage, ToolResultPart } from "ai";

/**
 * The conversation sent to the model, one session long.
 *
 * Hook context (a verdict's `context` strings, from any event) is queued and
 * delivered with the next model request as ONE user message made of
 * `<system-reminder>` blocks, appended at the end of the history just before
 * the request. It stays in the history afterwards, so later requests see the
 * same prefix (prompt caching keeps working) and the model keeps the context.
 */
export class History {
  readonly messages: ModelMessage[] = [];
  private readonly pending: string[] = [];

  /**
   * `onAdd` hears every message added (the transcript records the
   * conversation); `onRewrite` every user message's text replaced (the
   * transcript records that too, so a resumed session sends the new text).
   */
  constructor(
    private readonly onAdd: (message: ModelMessage) => void = () => {},
    private readonly onRewrite: (was: string, text: string) => void = () => {},
  ) {}

  private push(message: ModelMessage): void {
    this.messages.push(message);
    this.onAdd(message);
  }

  /** The conversation of a session picked up again: not announced (it is on disk already). */
  load(messages: readonly ModelMessage[]): void {
    this.messages.push(...messages);
  }

  /** Replaces the whole conversation (a compaction), announcing each new message. */
  replace(messages: readonly ModelMessage[]): void {
    this.messages.length = 0;
    for (const message of messages) this.push(message);
  }

  addUser(text: string): void {
    this.push({ role: "user", content: text });
  }

  /**
   * Replaces the text of the user message at `index` (a before_model hook's
   * new prompt, A3S GenerateStart's `modified`); false when no user message is
   * there any more (a compaction replaced the conversation). The transcript
   * keeps the prompt as it was typed, then the rewrite (`onRewrite`).
   */
  rewriteUser(index: number, text: string): boolean {
    const message = this.messages[index];
    if (message?.role !== "user") return false;
    this.messages[index] = { ...message, content: text };
    if (typeof message.content === "string" && message.content !== text) {
      this.onRewrite(message.content, text);
    }
    return true;
  }

  queueContext(context: readonly string[]): void {
    for (const text of context) if (text.trim()) this.pending.push(text);
  }

  get pendingContext(): readonly string[] {
    return this.pending;
  }

  /** Moves queued context into the history; returns how many blocks were sent. */
  flushContext(): number {
    const count = this.pending.length;
    if (count === 0) return 0;
    const text = this.pending.map(systemReminder).join("\n");
    this.pending.length = 0;
    this.push({ role: "user", content: text });
    return count;
  }

  /**
   * Adds the assistant message(s) of a model step. The AI SDK's response
   * messages keep provider metadata (Responses API item ids, reasoning); tool
   * messages it may have synthesized for invalid calls are dropped because the
   * agent answers every tool call itself.
   */
  addAssistant(messages: readonly ModelMessage[]): void {
    for (const message of messages) {
      if (message.role !== "assistant") continue;
      if (typeof message.content === "string") {
        this.push(message);
        continue;
      }
      const content = message.content.filter((part) => part.type !== "tool-result");
      if (content.length) this.push({ ...message, content });
    }
  }

  addToolResults(results: readonly ToolResultPart[]): void {
    if (results.length) this.push({ role: "tool", content: [...results] });
  }
}

export function systemReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`;
}

export function textResult(toolCallId: string, toolName: string, value: string): ToolResultPart {
  return { type: "tool-result", toolCallId, toolName, output: { type: "text", value } };
}

export function errorResult(toolCallId: string, toolName: string, value: string): ToolResultPart {
  return { type: "tool-result", toolCallId, toolName, output: { type: "error-text", value } };
}
