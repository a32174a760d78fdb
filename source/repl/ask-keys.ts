import type { Key } from "ink";
import { useRef, useState } from "react";
import type { AskView } from "./controller/store.js";
import type { ReplController } from "./controller.js";
import { applyKey, type EditorState, EMPTY_EDITOR, insertText } from "./editor.js";

/**
 * Keys while a question is on screen: a choice's letter answers it; the
 * "no, and tell the model why" choice first opens a line for the reason
 * (Enter sends it, Esc is a plain no). Keys pressed faster than they are read
 * arrive as one chunk: the first that is a choice answers, and a reason's
 * Enter inside a chunk sends it.
 */
export function useAskKeys(controller: ReplController, view: AskView | null) {
  // The reason being typed (null: not asked for). In a ref too: keys can come before a render.
  const whyRef = useRef<EditorState | null>(null);
  const [why, setWhyState] = useState<EditorState | null>(null);
  const setWhy = (next: EditorState | null) => {
    whyRef.current = next;
    setWhyState(next);
  };

  const typeWhy = (typing: EditorState, input: string, key: Key) => {
    const enterInside = input.length > 1 && input.includes("\r") && !key.ctrl && !key.meta;
    if (key.escape) controller.answer({ kind: "no" });
    else if (key.return) controller.answer({ kind: "no", because: typing.value });
    else if (enterInside) {
      const typed = insertText(typing, input.slice(0, input.indexOf("\r")));
      controller.answer({ kind: "no", because: typed.value });
    } else {
      const result = applyKey(typing, input, key);
      if (result.kind === "edit") setWhy(result.state);
      return;
    }
    setWhy(null);
  };

  const answerKey = (input: string, key: Key) => {
    const typing = whyRef.current;
    if (typing !== null) {
      typeWhy(typing, input, key);
      return;
    }
    if (key.escape) {
      controller.answer({ kind: "no" });
      return;
    }
    const choices = view?.choices ?? [];
    const pressed = [...input.toLowerCase()].find((k) => choices.some((c) => c.key === k));
    const choice = choices.find((c) => c.key === pressed);
    if (choice === undefined) return;
    if (choice.answer.kind === "no" && choice.answer.because !== undefined) setWhy(EMPTY_EDITOR);
    else controller.answer(choice.answer);
  };

  /** Pasted text goes to the reason when one is being typed (true), else to the caller. */
  const pasteWhy = (text: string): boolean => {
    if (whyRef.current === null) return false;
    setWhy(insertText(whyRef.current, text));
    return true;
  };

  return { why, answerKey, pasteWhy };
}
