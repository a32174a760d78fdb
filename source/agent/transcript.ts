import { randomUUID } from "node:crypto";
import { closeSync, writeSync } from "node:fs";
import type { ModelMessage } from "ai";
import { openPrivateAppendSync } from "../config/private-files.js";
import type { AgentEvent, AgentEventType } from "./events.js";
import { blocksOfMessage, type ConversationLine } from "./transcript-messages.js";
import type { Verdict } from "./verdicts.js";

/**
 * The lines of a transcript: the conversation in Claude Code's shape (`user`,
 * `assistant`, see transcript-messages.ts), acai's events and applied
 * verdicts beside it, a `prompt_rewrite` where a hook replaced a prompt's
 * text, and a `compact_boundary` where a compaction replaced the history, or a
 * before_stop hook cleared it (trigger `clear_context`; the conversation to
 * reload is what follows the last one).
 */
export type TranscriptLine =
  | ConversationLine
  | { type: "event"; time: string; event: AgentEvent }
  | { type: "verdict"; time: string; verdict: Verdict; for: AgentEventType }
  /**
   * A hook replaced the text of the user message `was` (a before_model
   * hook's prompt, A3S GenerateStart's `modified`): a resumed session sends
   * `text` in its place (the last user message whose text is `was`).
   */
  | { type: "prompt_rewrite"; time: string; was: string; text: string }
  | {
      type: "compact_boundary";
      time: string;
      uuid: string;
      sessionId: string;
      trigger: "manual" | "auto" | "clear_context";
      tokensBefore: number;
    };

export interface TranscriptSession {
  sessionId: string;
  cwd: string;
  /** The last conversation line of a transcript being continued (`parentUuid` of the next). */
  parentUuid?: string | null;
}

/** Buffered text_delta lines are written with the next other line, or past this size. */
const MAX_BUFFERED_BYTES = 64 * 1024;

/**
 * Append-only JSONL transcript. Every line except streamed text deltas is on
 * disk when its call returns (one synchronous append), so a hook started for
 * an event reads a transcript that already holds that event and every message
 * before it; text deltas are buffered and go with the next line. A write
 * failure is remembered and reported once, never thrown at the loop.
 */
export class TranscriptWriter {
  private readonly fd: number | undefined;
  private failure: Error | undefined;
  private buffered: string[] = [];
  private bufferedBytes = 0;
  private closed = false;
  private parentUuid: string | null;

  constructor(
    readonly file: string,
    private readonly now: () => number,
    private readonly session: TranscriptSession = { sessionId: "", cwd: "" },
  ) {
    this.parentUuid = session.parentUuid ?? null;
    try {
      // Prompts, tool output and file contents: owner-only (0600, new folders 0700).
      this.fd = openPrivateAppendSync(file);
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
    }
  }

  /** The first write error, if any (e.g. the disk filled up). */
  get error(): Error | undefined {
    return this.failure;
  }

  event(event: AgentEvent): void {
    this.write({ type: "event", time: this.timestamp(), event }, event.type !== "text_delta");
  }

  verdict(verdict: Verdict, forType: AgentEventType): void {
    this.write({ type: "verdict", time: this.timestamp(), verdict, for: forType });
  }

  /** One message added to the conversation, as a Claude Code–shaped line. */
  message(message: ModelMessage): void {
    const uuid = randomUUID();
    this.write({
      ...blocksOfMessage(message),
      uuid,
      parentUuid: this.parentUuid,
      sessionId: this.session.sessionId,
      timestamp: this.timestamp(),
      cwd: this.session.cwd,
    });
    this.parentUuid = uuid;
  }

  /** A hook replaced the text of the user message `was` with `text` (see `TranscriptLine`). */
  promptRewrite(was: string, text: string): void {
    this.write({ type: "prompt_rewrite", time: this.timestamp(), was, text });
  }

  /** A compaction replaced (or a hook cleared) the history: the messages written after this line are the conversation. */
  compactBoundary(trigger: "manual" | "auto" | "clear_context", tokensBefore: number): void {
    const uuid = randomUUID();
    this.write({
      type: "compact_boundary",
      time: this.timestamp(),
      uuid,
      sessionId: this.session.sessionId,
      trigger,
      tokensBefore,
    });
    this.parentUuid = null;
  }

  /** Writes what is buffered and closes the file. Safe to call twice. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.flush();
    this.closed = true;
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // already reported, or nothing left to lose
      }
    }
    return Promise.resolve();
  }

  private timestamp(): string {
    return new Date(this.now()).toISOString();
  }

  private write(line: TranscriptLine, flush = true): void {
    if (this.failure || this.fd === undefined || this.closed) return;
    const text = `${JSON.stringify(line)}\n`;
    this.buffered.push(text);
    this.bufferedBytes += text.length;
    if (flush || this.bufferedBytes > MAX_BUFFERED_BYTES) this.flush();
  }

  private flush(): void {
    if (this.buffered.length === 0 || this.fd === undefined || this.failure) return;
    const data = Buffer.from(this.buffered.join(""), "utf8");
    this.buffered = [];
    this.bufferedBytes = 0;
    try {
      let offset = 0;
      while (offset < data.length) offset += writeSync(this.fd, data, offset);
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
    }
  }
}
