/**
 * `@relay:NAME message`, `@relay:* message` and `@broadcast: message` lines in
 * the model's output: what the agent sends. A line is a message when it
 * starts with the pattern (leading blanks allowed) outside fenced code
 * blocks (the lines the pattern scanner reads, `proseLines`); `\@relay:` is
 * literal text, not a message. `@broadcast:` (agent-relay's namespace "to all") is
 * `@relay:*`: the rest of the line goes to every other running agent (an
 * explicit `@broadcast:* message` means the same). At most
 * `MAX_SENDS_PER_RESPONSE` per model response: a flood is cut, and said.
 */
import { proseLines } from "../patterns/scan.js";
import { BROADCAST } from "./message.js";

const MAX_SENDS_PER_RESPONSE = 10;

const LINE = /^[ \t]*@relay:(\S+)[ \t]+(\S.*)$/;
const BROADCAST_LINE = /^[ \t]*@broadcast:[ \t]*(?:\*(?:[ \t]+|$))?(\S.*)?$/;

function lineOf(raw: string): RelayLine | undefined {
  const direct = LINE.exec(raw);
  if (direct) return { to: direct[1] ?? "", content: (direct[2] ?? "").trimEnd() };
  const all = BROADCAST_LINE.exec(raw);
  if (all?.[1]) return { to: BROADCAST, content: all[1].trimEnd() };
  return undefined;
}

export interface RelayLine {
  to: string;
  content: string;
}

export function relayLines(text: string): { lines: RelayLine[]; dropped: number } {
  const lines: RelayLine[] = [];
  let dropped = 0;
  for (const { raw } of proseLines(text)) {
    const line = lineOf(raw);
    if (!line) continue;
    if (lines.length >= MAX_SENDS_PER_RESPONSE) {
      dropped++;
      continue;
    }
    lines.push(line);
  }
  return { lines, dropped };
}
