/**
 * `@relay:NAME message` and `@relay:* message` lines in the model's output:
 * what the agent sends. A line is a message when it starts with the pattern
 * (leading blanks allowed); `\@relay:` is literal text, not a message. At most
 * `MAX_SENDS_PER_RESPONSE` per model response: a flood is cut, and said.
 */
const MAX_SENDS_PER_RESPONSE = 10;

const LINE = /^[ \t]*@relay:(\S+)[ \t]+(\S.*)$/;

export interface RelayLine {
  to: string;
  content: string;
}

export function relayLines(text: string): { lines: RelayLine[]; dropped: number } {
  const lines: RelayLine[] = [];
  let dropped = 0;
  for (const raw of text.split("\n")) {
    const match = LINE.exec(raw.replace(/\r$/, ""));
    if (!match) continue;
    if (lines.length >= MAX_SENDS_PER_RESPONSE) {
      dropped++;
      continue;
    }
    lines.push({ to: match[1] ?? "", content: (match[2] ?? "").trimEnd() });
  }
  return { lines, dropped };
}
