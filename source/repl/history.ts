import { appendFile, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { ensurePrivateDir, tightenFile } from "../config/private-files.js";

/** One line of the history file. Multi-line prompts stay one entry. */
const HistoryLine = z.object({ prompt: z.string(), at: z.number().optional() });

export const HISTORY_LIMIT = 1000;

/** Reads the history file; a missing file is empty, damaged lines are skipped. */
export async function loadHistory(file: string, limit = HISTORY_LIMIT): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return [];
  }
  const entries: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    const result = HistoryLine.safeParse(parsed);
    if (result.success && result.data.prompt.trim()) entries.push(result.data.prompt);
  }
  return entries.slice(-limit);
}

/**
 * Appends one prompt. Keeps the file bounded: when it holds twice the limit it
 * is rewritten with the last `limit` entries. Failures are returned, not thrown:
 * history is a convenience and must never break a session.
 */
export async function appendHistory(
  file: string,
  prompt: string,
  options: { now?: number; limit?: number } = {},
): Promise<string | undefined> {
  const limit = options.limit ?? HISTORY_LIMIT;
  try {
    await ensurePrivateDir(path.dirname(file));
    await appendFile(file, `${JSON.stringify({ prompt, at: options.now ?? Date.now() })}\n`, {
      mode: 0o600,
    });
    // The mode above applies only when the file is new; an older acai made it 0644.
    await tightenFile(file);
    const text = await readFile(file, "utf8");
    const lines = text.split("\n").filter((line) => line.trim());
    if (lines.length > limit * 2) {
      await writeFile(file, `${lines.slice(-limit).join("\n")}\n`, { mode: 0o600 });
    }
    return undefined;
  } catch (error) {
    return `could not save prompt history to ${file}: ${(error as Error).message}`;
  }
}
