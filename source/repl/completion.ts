/**
 * Completion at the prompt: `/` at the start of the line offers the slash
 * commands, `@` starting a word offers files and folders (relative to the
 * session's folder, one folder level at a time, hidden ones only when the
 * typed part starts with `.`). Tab takes the chosen one. Reads one folder,
 * bounded; the rest is pure.
 */
import { type Dirent, readdirSync } from "node:fs";
import path from "node:path";
import { COMMAND_HELP } from "./commands.js";
import type { EditorState } from "./editor.js";

export interface Completion {
  /** What can replace the typed part, best first. */
  items: string[];
  /** The typed part: `value.slice(start, end)` (end is the cursor). */
  start: number;
  end: number;
  kind: "command" | "file";
}

const MAX_ITEMS = 50;
const MAX_ENTRIES = 2000;

const COMMANDS = [...new Set(COMMAND_HELP.map(([usage]) => usage.split(" ")[0] ?? ""))].filter(
  (name) => name.startsWith("/"),
);

/** What the text before the cursor can be completed with, if anything. */
export function completionAt(editor: EditorState, cwd: string): Completion | undefined {
  const before = editor.value.slice(0, editor.cursor);
  if (/^\/[a-z]*$/i.test(before)) {
    const typed = before.toLowerCase();
    const items = COMMANDS.filter((name) => name.startsWith(typed) && name !== typed);
    return items.length > 0 ? { items, start: 0, end: editor.cursor, kind: "command" } : undefined;
  }
  const word = /(^|\s)@([^\s@]*)$/.exec(before);
  if (word === null) return undefined;
  const typed = word[2] ?? "";
  const items = fileItems(typed, cwd);
  if (items.length === 0) return undefined;
  return { items, start: editor.cursor - typed.length, end: editor.cursor, kind: "file" };
}

/** The editor with the typed part replaced by `item` (and a space after a command or a file). */
export function applyCompletion(
  editor: EditorState,
  completion: Completion,
  item: string,
): EditorState {
  const tail = item.endsWith("/") ? "" : " ";
  const value =
    editor.value.slice(0, completion.start) + item + tail + editor.value.slice(completion.end);
  return { value, cursor: completion.start + item.length + tail.length };
}

function fileItems(typed: string, cwd: string): string[] {
  const slash = typed.lastIndexOf("/");
  const folderPart = typed.slice(0, slash + 1);
  const namePart = typed.slice(slash + 1);
  const folder = path.resolve(cwd, folderPart || ".");
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true }).slice(0, MAX_ENTRIES);
  } catch {
    return [];
  }
  return (
    entries
      // A name with control characters would put them into the prompt: not offered.
      .filter((entry) => entry.name.startsWith(namePart) && !hasControl(entry.name))
      .filter((entry) => namePart.startsWith(".") || !entry.name.startsWith("."))
      .map((entry) => `${folderPart}${entry.name}${entry.isDirectory() ? "/" : ""}`)
      .filter((item) => item !== typed)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, MAX_ITEMS)
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control bytes is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

function hasControl(name: string): boolean {
  return CONTROL.test(name);
}
