/**
 * A file a tool just wrote (Write, Edit) that an after_tool hook then changed
 * — a formatter, a linter's --fix — must not leave the model editing against
 * the text it wrote. The file's content hash is taken before the after_tool
 * hooks and again after them; when it differs, the model is told, with the
 * changed lines numbered as `cat -n` prints them (Claude Code does the same
 * with a `<system-reminder>` "was modified, either by the user or by a linter").
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { looksBinary, numberLine, splitLines } from "../tools/text.js";
import { systemReminder } from "./history.js";

/** Files larger than this are hashed but not shown. */
const MAX_SHOWN_FILE_BYTES = 1024 * 1024;
/** Lines of context around the changed ones. */
const CONTEXT_LINES = 3;
/** Numbered lines shown at most. */
const MAX_SHOWN_LINES = 200;

export interface FileSnapshot {
  hash: string;
  /** The text, for the changed lines; undefined when binary or too large. */
  text: string | undefined;
}

/** The file's hash and text now; undefined when it cannot be read (gone, a directory). */
export async function snapshotFile(file: string): Promise<FileSnapshot | undefined> {
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch {
    return undefined;
  }
  const hash = createHash("sha256").update(data).digest("hex");
  const showable = data.length <= MAX_SHOWN_FILE_BYTES && !looksBinary(data);
  return { hash, text: showable ? data.toString("utf8") : undefined };
}

/**
 * What to tell the model when the file differs from `before` (undefined when
 * it does not). `tool` is the tool that wrote it, for the wording.
 */
export async function modifiedFileNotice(
  file: string,
  tool: string,
  before: FileSnapshot,
): Promise<string | undefined> {
  const after = await snapshotFile(file);
  if (after?.hash === before.hash) return undefined;
  const head = `Note: ${file} was changed after your ${tool} by an after_tool hook (a formatter or linter, most likely). The change is intentional: take it into account and do not revert it unless the user asks you to. Edit against the file as it is now, not the text you wrote.`;
  if (after === undefined) return systemReminder(`${head}\nThe file no longer exists.`);
  if (after.text === undefined || before.text === undefined) {
    return systemReminder(`${head}\nRead it again before changing it.`);
  }
  return systemReminder(
    `${head}\nSo that you need not read it again, here are its changed lines (numbered as \`cat -n\` prints them):\n${changedLines(before.text, after.text)}`,
  );
}

/** The new text's lines from the first to the last that differ, with context, numbered. */
export function changedLines(before: string, after: string): string {
  const old = splitLines(before);
  const now = splitLines(after);
  let start = 0;
  while (start < old.length && start < now.length && old[start] === now[start]) start++;
  let endOld = old.length;
  let endNow = now.length;
  while (endOld > start && endNow > start && old[endOld - 1] === now[endNow - 1]) {
    endOld--;
    endNow--;
  }
  if (now.length === 0) return "(the file is now empty)";
  const from = Math.max(0, start - CONTEXT_LINES);
  const to = Math.min(now.length, Math.max(endNow, start + 1) + CONTEXT_LINES);
  const shown: string[] = [];
  for (let n = from; n < Math.min(to, from + MAX_SHOWN_LINES); n++) {
    shown.push(numberLine(n + 1, now[n] ?? ""));
  }
  if (to - from > MAX_SHOWN_LINES) {
    shown.push(`… ${to - from - MAX_SHOWN_LINES} more changed lines; Read the file for the rest.`);
  }
  return shown.join("\n");
}
