import type { Key } from "ink";

/** The prompt line being edited: text (may hold newlines) and a cursor offset into it. */
export interface EditorState {
  value: string;
  cursor: number;
}

export const EMPTY_EDITOR: EditorState = Object.freeze({ value: "", cursor: 0 });

export type EditorResult =
  | { kind: "edit"; state: EditorState }
  | { kind: "submit"; value: string }
  | { kind: "history"; delta: -1 | 1 }
  | { kind: "none" };

export function editorOf(value: string): EditorState {
  return { value, cursor: value.length };
}

/** Normalizes pasted or typed text: CRLF/CR become LF, other control characters are dropped. */
function cleanText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, "\n")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping terminal control bytes is the point
      .replace(/\u001b\[[0-9;?]*[A-Za-z~]/g, "")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping terminal control bytes is the point
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
  );
}

export function insertText(state: EditorState, text: string): EditorState {
  const clean = cleanText(text);
  if (!clean) return state;
  return {
    value: state.value.slice(0, state.cursor) + clean + state.value.slice(state.cursor),
    cursor: state.cursor + clean.length,
  };
}

function lineStart(value: string, cursor: number): number {
  return value.lastIndexOf("\n", cursor - 1) + 1;
}

function lineEnd(value: string, cursor: number): number {
  const end = value.indexOf("\n", cursor);
  return end === -1 ? value.length : end;
}

function wordLeft(value: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && /\s/.test(value[i - 1] ?? "")) i--;
  while (i > 0 && !/\s/.test(value[i - 1] ?? "")) i--;
  return i;
}

function wordRight(value: string, cursor: number): number {
  let i = cursor;
  while (i < value.length && /\s/.test(value[i] ?? "")) i++;
  while (i < value.length && !/\s/.test(value[i] ?? "")) i++;
  return i;
}

/** Moves the cursor one line up or down keeping the column; undefined at the first/last line. */
function verticalMove(state: EditorState, delta: -1 | 1): EditorState | undefined {
  const { value, cursor } = state;
  const start = lineStart(value, cursor);
  const column = cursor - start;
  if (delta === -1) {
    if (start === 0) return undefined;
    const prevStart = lineStart(value, start - 1);
    return { value, cursor: Math.min(prevStart + column, start - 1) };
  }
  const end = lineEnd(value, cursor);
  if (end === value.length) return undefined;
  const nextStart = end + 1;
  return { value, cursor: Math.min(nextStart + column, lineEnd(value, nextStart)) };
}

function remove(state: EditorState, from: number, to: number): EditorState {
  if (from >= to) return state;
  return { value: state.value.slice(0, from) + state.value.slice(to), cursor: from };
}

const edit = (state: EditorState): EditorResult => ({ kind: "edit", state });

/** Applies one key press to the editor. Ctrl-C, Ctrl-D and Esc are the caller's. */
export function applyKey(state: EditorState, input: string, key: Key): EditorResult {
  const { value, cursor } = state;
  if (key.return) {
    if (key.meta || key.shift) return edit(insertText(state, "\n"));
    if (cursor > 0 && value[cursor - 1] === "\\" && cursor === lineEnd(value, cursor)) {
      return edit({
        value: `${value.slice(0, cursor - 1)}\n${value.slice(cursor)}`,
        cursor,
      });
    }
    return { kind: "submit", value };
  }
  if (key.upArrow || (key.ctrl && input === "p")) {
    const moved = verticalMove(state, -1);
    return moved ? edit(moved) : { kind: "history", delta: -1 };
  }
  if (key.downArrow || (key.ctrl && input === "n")) {
    const moved = verticalMove(state, 1);
    return moved ? edit(moved) : { kind: "history", delta: 1 };
  }
  if (key.leftArrow || (key.ctrl && input === "b")) {
    if (key.ctrl && key.leftArrow) return edit({ value, cursor: wordLeft(value, cursor) });
    return edit({ value, cursor: Math.max(0, cursor - 1) });
  }
  if (key.rightArrow || (key.ctrl && input === "f")) {
    if (key.ctrl && key.rightArrow) return edit({ value, cursor: wordRight(value, cursor) });
    return edit({ value, cursor: Math.min(value.length, cursor + 1) });
  }
  if (key.meta && input === "b") return edit({ value, cursor: wordLeft(value, cursor) });
  if (key.meta && input === "f") return edit({ value, cursor: wordRight(value, cursor) });
  if (key.home || (key.ctrl && input === "a"))
    return edit({ value, cursor: lineStart(value, cursor) });
  if (key.end || (key.ctrl && input === "e"))
    return edit({ value, cursor: lineEnd(value, cursor) });
  if (key.backspace) {
    if (key.meta) return edit(remove(state, wordLeft(value, cursor), cursor));
    return edit(remove(state, Math.max(0, cursor - 1), cursor));
  }
  if (key.delete) return edit(remove(state, cursor, Math.min(value.length, cursor + 1)));
  if (key.ctrl && input === "w") return edit(remove(state, wordLeft(value, cursor), cursor));
  if (key.ctrl && input === "u") return edit(remove(state, lineStart(value, cursor), cursor));
  if (key.ctrl && input === "k") return edit(remove(state, cursor, lineEnd(value, cursor)));
  if (key.ctrl || key.meta || key.tab || key.escape || key.pageUp || key.pageDown) {
    return { kind: "none" };
  }
  if (input === "") return { kind: "none" };
  return edit(insertText(state, input));
}
