import { Box, type Key, Static, Text, useInput, usePaste, useWindowSize } from "ink";
import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useAskKeys } from "./ask-keys.js";
import { AskPrompt } from "./components/AskPrompt.js";
import { CompletionList } from "./components/CompletionList.js";
import { ItemView } from "./components/ItemView.js";
import { LiveArea } from "./components/LiveArea.js";
import { PromptInput } from "./components/PromptInput.js";
import { StatusLine } from "./components/StatusLine.js";
import { TrustScreen } from "./components/TrustScreen.js";
import { WorkingLine } from "./components/WorkingLine.js";
import type { ReplController } from "./controller.js";
import { applyKey, type EditorState, EMPTY_EDITOR, editorOf, insertText } from "./editor.js";
import type { Item } from "./state.js";
import { type Theme, ThemeContext } from "./theme.js";
import { useCompletion } from "./use-completion.js";

export interface AppProps {
  controller: ReplController;
  color: boolean;
  now?: () => number;
}

/** Index into history while browsing it; `undefined` means editing the draft. */
interface Browse {
  index: number;
  draft: string;
}

export function App({ controller, color, now = Date.now }: AppProps) {
  const ui = useSyncExternalStore(controller.subscribe, controller.getState);
  const { columns } = useWindowSize();
  const width = Math.max(20, columns || 80);
  const theme = useMemo<Theme>(() => ({ color, now }), [color, now]);

  // The editor lives in a ref too: several keys can arrive before React re-renders.
  const editorRef = useRef<EditorState>(EMPTY_EDITOR);
  const [editor, setEditorState] = useState<EditorState>(EMPTY_EDITOR);
  const browseRef = useRef<Browse | undefined>(undefined);
  const setEditor = useCallback((next: EditorState) => {
    editorRef.current = next;
    setEditorState(next);
  }, []);

  const history = ui.history;
  const promptActive =
    ui.phase !== "trust" && ui.phase !== "exiting" && ui.phase !== "done" && ui.ask === null;

  const moveHistory = (delta: -1 | 1) => {
    const browse = browseRef.current ?? { index: history.length, draft: editorRef.current.value };
    const index = browse.index + delta;
    if (index < 0 || index > history.length) return;
    browseRef.current = index === history.length ? undefined : { ...browse, index };
    setEditor(editorOf(index === history.length ? browse.draft : (history[index] ?? "")));
  };

  const { why, answerKey, pasteWhy } = useAskKeys(controller, ui.askView);
  const complete = useCompletion(editor, promptActive, controller.cwd);

  const onKey = (input: string, key: Key) => {
    if (ui.phase === "trust") {
      if (key.ctrl && input === "c") controller.ctrlC(true);
      return;
    }
    controller.activity();
    if (key.ctrl && input === "c") {
      const result = controller.ctrlC(editorRef.current.value === "");
      if (result === "clear") {
        browseRef.current = undefined;
        setEditor(EMPTY_EDITOR);
      }
      return;
    }
    if (key.tab && key.shift) {
      controller.cycleMode();
      return;
    }
    if (ui.ask) {
      answerKey(input, key);
      return;
    }
    if (key.escape) {
      controller.escape();
      return;
    }
    if (key.ctrl && input === "d") {
      if (editorRef.current.value === "") controller.requestExit();
      else setEditor(applyDelete(editorRef.current));
      return;
    }
    if (!promptActive) return;
    // Keys typed faster than they are read arrive as one chunk: a CR inside it is Enter.
    if (input.length > 1 && input.includes("\r") && !key.ctrl && !key.meta) {
      const parts = input.split("\r");
      parts.forEach((part, index) => {
        if (part) onKey(part, { ...key, return: false });
        if (index < parts.length - 1) onKey("\r", { ...key, return: true });
      });
      return;
    }
    const completed = complete.key(editorRef.current, input, key);
    if (completed !== undefined) {
      setEditor(completed);
      return;
    }
    const result = applyKey(editorRef.current, input, key);
    switch (result.kind) {
      case "edit":
        if (result.state.value !== editorRef.current.value) browseRef.current = undefined;
        setEditor(result.state);
        return;
      case "submit":
        browseRef.current = undefined;
        setEditor(EMPTY_EDITOR);
        controller.submit(result.value);
        return;
      case "history":
        moveHistory(result.delta);
        return;
      case "none":
        return;
      default:
        return result satisfies never;
    }
  };

  useInput(onKey, { isActive: ui.phase !== "done" });
  usePaste(
    (text) => {
      if (pasteWhy(text)) return;
      if (!promptActive) return;
      controller.activity();
      browseRef.current = undefined;
      setEditor(insertText(editorRef.current, text));
    },
    { isActive: ui.phase !== "done" && ui.phase !== "trust" },
  );

  const renderItem = useCallback(
    (item: Item) => <ItemView key={item.id} item={item} width={width} />,
    [width],
  );

  return (
    <ThemeContext.Provider value={theme}>
      {/* Without a width the absolute <Static> box lays rows out wider than the terminal. */}
      <Static key={ui.view.epoch} items={ui.view.items} style={{ width }}>
        {renderItem}
      </Static>
      {ui.phase === "trust" && ui.trust ? (
        <TrustScreen
          hooks={ui.trust}
          review={ui.trustReview}
          width={width}
          onChoose={(choice) => void controller.chooseTrust(choice)}
        />
      ) : (
        <Box flexDirection="column">
          <LiveArea view={ui.view} width={width} ask={ui.ask} />
          {ui.ask ? (
            <AskPrompt request={ui.ask} view={ui.askView} why={why} width={width} />
          ) : (
            <WorkingLine view={ui.view} />
          )}
          {ui.phase === "done" ? null : (
            <Box marginTop={1}>
              <PromptInput
                editor={editor}
                width={width}
                active={promptActive}
                placeholder={placeholder(ui.phase, ui.busy)}
              />
            </Box>
          )}
          {complete.completion && ui.phase !== "done" ? (
            <CompletionList completion={complete.completion} index={complete.index} width={width} />
          ) : null}
          {ui.phase === "done" ? null : (
            <StatusLine
              view={ui.view}
              busy={ui.busy}
              queued={ui.queued}
              width={width}
              {...(ui.mode ? { mode: ui.mode } : {})}
            />
          )}
          {ui.hint && ui.phase !== "done" ? <Text dimColor>{ui.hint}</Text> : null}
        </Box>
      )}
    </ThemeContext.Provider>
  );
}

function placeholder(phase: string, busy: boolean): string {
  if (phase === "starting") return "starting the session… (type ahead)";
  if (phase === "switching") return "starting a new session…";
  if (phase === "exiting") return "exiting…";
  if (busy) return "type to queue the next prompt · Esc aborts";
  return "ask anything · /help";
}

function applyDelete(state: EditorState): EditorState {
  if (state.cursor >= state.value.length) return state;
  return {
    value: state.value.slice(0, state.cursor) + state.value.slice(state.cursor + 1),
    cursor: state.cursor,
  };
}
