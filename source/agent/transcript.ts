import { createWriteStream, type WriteStream } from "node:fs";
import { openPrivateAppendSync } from "../config/private-files.js";
import type { AgentEvent, AgentEventType, Verdict } from "./events.js";

export type TranscriptLine =
  | { time: string; event: AgentEvent }
  | { time: string; verdict: Verdict; for: AgentEventType };

/**
 * Append-only JSONL transcript: one line per yielded event and one per applied
 * verdict. Writes go through one append stream (no sync I/O per event); a
 * write failure is remembered and reported once, never thrown at the loop.
 */
export class TranscriptWriter {
  private readonly stream: WriteStream | undefined;
  private failure: Error | undefined;

  constructor(
    readonly file: string,
    private readonly now: () => number,
  ) {
    try {
      // Prompts, tool output and file contents: owner-only (0600, new folders 0700).
      this.stream = createWriteStream(file, { fd: openPrivateAppendSync(file) });
      this.stream.on("error", (error) => {
        this.failure ??= error;
      });
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
    }
  }

  /** The first write error, if any (e.g. the disk filled up). */
  get error(): Error | undefined {
    return this.failure;
  }

  event(event: AgentEvent): void {
    this.write({ time: this.timestamp(), event });
  }

  verdict(verdict: Verdict, forType: AgentEventType): void {
    this.write({ time: this.timestamp(), verdict, for: forType });
  }

  /** Flushes and closes the file. Safe to call twice. */
  close(): Promise<void> {
    const stream = this.stream;
    if (!stream || stream.closed || stream.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      stream.once("error", () => resolve());
      stream.end(() => resolve());
    });
  }

  private timestamp(): string {
    return new Date(this.now()).toISOString();
  }

  private write(line: TranscriptLine): void {
    if (this.failure || !this.stream || this.stream.writableEnded) return;
    this.stream.write(`${JSON.stringify(line)}\n`);
  }
}
