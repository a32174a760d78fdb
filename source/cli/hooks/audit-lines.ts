/**
 * The hooks audit log read back, streamed (it holds every session's lines):
 * each line as text, those longer than any line acai writes about one call
 * skipped unread, and none when the file does not exist.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

/** Lines longer than this are not audit lines acai wrote about one call: skipped unread. */
const MAX_LINE_CHARS = 1_000_000;

export async function* auditLines(file: string): AsyncGenerator<string> {
  const stream = createReadStream(file, { encoding: "utf8" });
  const opened = await new Promise<boolean>((resolve) => {
    stream.once("open", () => resolve(true));
    stream.once("error", () => resolve(false));
  });
  if (!opened) return;
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) if (line.length <= MAX_LINE_CHARS) yield line;
  } finally {
    lines.close();
    stream.destroy();
  }
}

/** A line's JSON, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
