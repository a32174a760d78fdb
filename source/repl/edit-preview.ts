/**
 * What an Edit or Write will change, as diff lines shown in its permission
 * prompt before the user answers: the file as it is now (read bounded, a
 * regular file only) against the file as the call would leave it, with two
 * lines of context, cut to a screenful. The `diff` package (jsdiff) finds the
 * hunks. Model text and file text are shown inert.
 */
import path from "node:path";
import { structuredPatch } from "diff";
import { readRegularFileSync } from "../config/read-regular-file.js";
import { stripControls } from "../terminal/inert-text.js";

type DiffLine = { kind: "add" | "del" | "same" | "gap"; text: string };

export interface EditPreview {
  /** The file as the call names it, absolute. */
  file: string;
  lines: DiffLine[];
  /** Diff lines left out past the cap. */
  hidden: number;
  /** Said instead of (or besides) a diff: a new file, a file that cannot be read, an edit that will not apply. */
  note?: string;
}

const MAX_FILE_BYTES = 512 * 1024;
const MAX_LINES = 24;
const CONTEXT = 2;

/** The preview of a Write or Edit call, or undefined for other calls. */
export function editPreview(
  toolName: string | undefined,
  input: unknown,
  cwd: string,
): EditPreview | undefined {
  if (toolName !== "Write" && toolName !== "Edit") return undefined;
  if (input === null || typeof input !== "object") return undefined;
  const fields = input as Record<string, unknown>;
  if (typeof fields.file_path !== "string") return undefined;
  const file = path.resolve(cwd, fields.file_path);
  const read = readRegularFileSync(file, MAX_FILE_BYTES);
  if (!read.ok && read.problem !== "missing") {
    return { file, lines: [], hidden: 0, note: `no diff: ${read.reason ?? read.problem}` };
  }
  const before = read.ok ? read.data.toString("utf8") : "";
  const after = afterCall(toolName, fields, before);
  if (typeof after !== "string") return { file, lines: [], hidden: 0, note: after.note };
  const lines = diffLines(before, after);
  return {
    file,
    lines: lines.slice(0, MAX_LINES),
    hidden: Math.max(0, lines.length - MAX_LINES),
    ...(read.ok ? {} : { note: "a new file" }),
  };
}

/** The file's text once the call ran, or why it cannot be told. */
function afterCall(
  toolName: "Write" | "Edit",
  fields: Record<string, unknown>,
  before: string,
): string | { note: string } {
  if (toolName === "Write") {
    return typeof fields.content === "string" ? fields.content : { note: "no diff: no content" };
  }
  const { old_string: from, new_string: to } = fields;
  if (typeof from !== "string" || typeof to !== "string" || from === "") {
    return { note: "no diff: the edit has no old_string or new_string" };
  }
  const at = before.indexOf(from);
  if (at === -1) return { note: "old_string is not in the file: the edit will fail" };
  // Split and join, not String.replace: `$&` in new_string is text, not a pattern.
  if (fields.replace_all === true) return before.split(from).join(to);
  return before.slice(0, at) + to + before.slice(at + from.length);
}

function diffLines(before: string, after: string): DiffLine[] {
  const patch = structuredPatch("a", "b", before, after, "", "", { context: CONTEXT });
  const out: DiffLine[] = [];
  patch.hunks.forEach((hunk, index) => {
    if (index > 0) out.push({ kind: "gap", text: "⋯" });
    for (const line of hunk.lines) {
      const mark = line[0];
      if (mark !== "+" && mark !== "-" && mark !== " ") continue; // "\ No newline at end of file"
      const text = stripControls(line.slice(1)).replace(/\t/g, "    ");
      out.push({ kind: mark === "+" ? "add" : mark === "-" ? "del" : "same", text });
    }
  });
  return out;
}
