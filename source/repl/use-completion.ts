import type { Key } from "ink";
import { useMemo, useState } from "react";
import { applyCompletion, type Completion, completionAt } from "./completion.js";
import type { EditorState } from "./editor.js";

/**
 * The completion of what is being typed (completion.ts) while the prompt is
 * active: ↑ and ↓ choose among the candidates, Tab takes the chosen one.
 * `key` returns the editor to set, or undefined when the key is not the
 * completion's.
 */
export function useCompletion(editor: EditorState, active: boolean, cwd: () => string) {
  const completion = useMemo(
    () => (active ? completionAt(editor, cwd()) : undefined),
    [editor, active, cwd],
  );
  const [chosen, setChosen] = useState({ for: "", index: 0 });
  const id = completion ? `${completion.start}:${completion.items.join("\n")}` : "";
  const index = chosen.for === id ? chosen.index : 0;

  const key = (current: EditorState, input: string, k: Key): EditorState | undefined => {
    if (!completion) return undefined;
    const count = completion.items.length;
    if (k.tab && !k.shift) {
      const item = completion.items[index];
      return item === undefined ? undefined : applyCompletion(current, completion, item);
    }
    if ((k.upArrow || k.downArrow) && input === "") {
      setChosen({ for: id, index: (index + (k.upArrow ? count - 1 : 1)) % count });
      return current;
    }
    return undefined;
  };
  return { completion, index, key } as {
    completion: Completion | undefined;
    index: number;
    key: typeof key;
  };
}
