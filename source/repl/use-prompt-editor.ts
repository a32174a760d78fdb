/**
 * The prompt's editor state with history browsing: kept in a ref as well as
 * in React state, because several keys can arrive before React re-renders.
 */
import { useCallback, useRef, useState } from "react";
import { type EditorState, EMPTY_EDITOR, editorOf, insertText } from "./editor.js";

/** Index into history while browsing it; `undefined` means editing the draft. */
interface Browse {
  index: number;
  draft: string;
}

export interface PromptEditor {
  editor: EditorState;
  /** The state as of the last key (ahead of React's render). */
  current(): EditorState;
  /** A new state typed by the user (leaves history browsing when the text changed). */
  edit(next: EditorState): void;
  /** A new state that keeps history browsing as it is (a completion, Ctrl-D's delete). */
  replace(next: EditorState): void;
  /** Empty again, out of history browsing (after submit or Ctrl-C). */
  clear(): void;
  /** Pasted text at the cursor. */
  paste(text: string): void;
  /** One step back (-1) or forward (1) through the prompts sent. */
  moveHistory(delta: -1 | 1): void;
}

export function usePromptEditor(history: readonly string[]): PromptEditor {
  const editorRef = useRef<EditorState>(EMPTY_EDITOR);
  const [editor, setEditorState] = useState<EditorState>(EMPTY_EDITOR);
  const browseRef = useRef<Browse | undefined>(undefined);
  const set = useCallback((next: EditorState) => {
    editorRef.current = next;
    setEditorState(next);
  }, []);
  return {
    editor,
    current: () => editorRef.current,
    edit: (next) => {
      if (next.value !== editorRef.current.value) browseRef.current = undefined;
      set(next);
    },
    replace: set,
    clear: () => {
      browseRef.current = undefined;
      set(EMPTY_EDITOR);
    },
    paste: (text) => {
      browseRef.current = undefined;
      set(insertText(editorRef.current, text));
    },
    moveHistory: (delta) => {
      const browse = browseRef.current ?? { index: history.length, draft: editorRef.current.value };
      const index = browse.index + delta;
      if (index < 0 || index > history.length) return;
      browseRef.current = index === history.length ? undefined : { ...browse, index };
      set(editorOf(index === history.length ? browse.draft : (history[index] ?? "")));
    },
  };
}
