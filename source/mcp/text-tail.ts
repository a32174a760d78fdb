/**
 * The last lines of a stream of text, bounded in lines and characters, with
 * terminal control characters removed: what a failing MCP server last wrote
 * on stderr, quoted in its error.
 */
import { stripControls } from "../terminal/inert-text.js";

export interface TextTailLimits {
  lines: number;
  chars: number;
}

export class TextTail {
  private text = "";

  constructor(private readonly limits: TextTailLimits) {}

  push(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.limits.chars * 2);
  }

  /** The kept lines, oldest first, blank ones dropped. */
  lines(): string[] {
    const lines = this.text
      .split("\n")
      .map((line) => stripControls(line).trimEnd())
      .filter((line) => line.trim() !== "")
      .slice(-this.limits.lines);
    let total = 0;
    const kept: string[] = [];
    for (const line of lines.reverse()) {
      total += line.length;
      if (total > this.limits.chars) break;
      kept.unshift(line);
    }
    return kept;
  }
}
