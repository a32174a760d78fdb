/**
 * What the REPL's keys and pastes do, in order of precedence: the trust
 * screen's Ctrl-C, Ctrl-C, Shift-Tab (the mode), a question's answer keys,
 * Esc, Ctrl-D, then the prompt (completion, editing, submit, history).
 */
import { type Key, useInput, usePaste } from "ink";
import type { ReplController } from "./controller.js";
import { applyKey, type EditorState } from "./editor.js";
import type { useCompletion } from "./use-completion.js";
import type { PromptEditor } from "./use-prompt-editor.js";

export interface AppKeysOptions {
  controller: ReplController;
  phase: string;
  asking: boolean;
  promptActive: boolean;
  prompt: PromptEditor;
  answerKey: (input: string, key: Key) => void;
  pasteWhy: (text: string) => boolean;
  complete: ReturnType<typeof useCompletion>;
}

export function useAppKeys(options: AppKeysOptions): void {
  const { controller, phase, prompt } = options;
  const onKey = (input: string, key: Key): void => {
    if (phase === "trust") {
      if (key.ctrl && input === "c") controller.ctrlC(true);
      return;
    }
    controller.activity();
    if (controlKey(options, input, key)) return;
    if (!options.promptActive) return;
    // Keys typed faster than they are read arrive as one chunk: a CR inside it is Enter.
    if (input.length > 1 && input.includes("\r") && !key.ctrl && !key.meta) {
      const parts = input.split("\r");
      parts.forEach((part, index) => {
        if (part) onKey(part, { ...key, return: false });
        if (index < parts.length - 1) onKey("\r", { ...key, return: true });
      });
      return;
    }
    promptKey(options, input, key);
  };
  useInput(onKey, { isActive: phase !== "done" });
  usePaste(
    (text) => {
      if (options.pasteWhy(text)) return;
      if (!options.promptActive) return;
      controller.activity();
      prompt.paste(text);
    },
    { isActive: phase !== "done" && phase !== "trust" },
  );
}

/** Ctrl-C, Shift-Tab, a question's keys, Esc and Ctrl-D; true when the key was taken. */
function controlKey(options: AppKeysOptions, input: string, key: Key): boolean {
  const { controller, prompt } = options;
  if (key.ctrl && input === "c") {
    if (controller.ctrlC(prompt.current().value === "") === "clear") prompt.clear();
    return true;
  }
  if (key.tab && key.shift) {
    controller.cycleMode();
    return true;
  }
  if (options.asking) {
    options.answerKey(input, key);
    return true;
  }
  if (key.escape) {
    controller.escape();
    return true;
  }
  if (key.ctrl && input === "d") {
    if (prompt.current().value === "") controller.requestExit();
    else prompt.replace(applyDelete(prompt.current()));
    return true;
  }
  return false;
}

/** A key for the prompt: a completion first, then the editor's own keys. */
function promptKey(options: AppKeysOptions, input: string, key: Key): void {
  const { controller, prompt } = options;
  const completed = options.complete.key(prompt.current(), input, key);
  if (completed !== undefined) {
    prompt.replace(completed);
    return;
  }
  const result = applyKey(prompt.current(), input, key);
  switch (result.kind) {
    case "edit":
      prompt.edit(result.state);
      return;
    case "submit":
      prompt.clear();
      controller.submit(result.value);
      return;
    case "history":
      prompt.moveHistory(result.delta);
      return;
    case "none":
      return;
    default:
      result satisfies never;
  }
}

function applyDelete(state: EditorState): EditorState {
  if (state.cursor >= state.value.length) return state;
  return {
    value: state.value.slice(0, state.cursor) + state.value.slice(state.cursor + 1),
    cursor: state.cursor,
  };
}
