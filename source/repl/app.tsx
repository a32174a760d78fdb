import { Static, useWindowSize } from "ink";
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { useAskKeys } from "./ask-keys.js";
import { ItemView } from "./components/ItemView.js";
import { SessionScreen } from "./components/SessionScreen.js";
import { TrustScreen } from "./components/TrustScreen.js";
import type { ReplController } from "./controller.js";
import type { Item } from "./state.js";
import { type Theme, ThemeContext } from "./theme.js";
import { useAppKeys } from "./use-app-keys.js";
import { useCompletion } from "./use-completion.js";
import { usePromptEditor } from "./use-prompt-editor.js";

export interface AppProps {
  controller: ReplController;
  color: boolean;
  now?: () => number;
}

export function App({ controller, color, now = Date.now }: AppProps) {
  const ui = useSyncExternalStore(controller.subscribe, controller.getState);
  const { columns } = useWindowSize();
  const width = Math.max(20, columns || 80);
  const theme = useMemo<Theme>(() => ({ color, now }), [color, now]);
  const prompt = usePromptEditor(ui.history);
  const promptActive =
    ui.phase !== "trust" && ui.phase !== "exiting" && ui.phase !== "done" && ui.ask === null;
  const { why, answerKey, pasteWhy } = useAskKeys(controller, ui.askView);
  const complete = useCompletion(prompt.editor, promptActive, controller.cwd);
  useAppKeys({
    controller,
    phase: ui.phase,
    asking: ui.ask !== null,
    promptActive,
    prompt,
    answerKey,
    pasteWhy,
    complete,
  });
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
        <SessionScreen
          ui={ui}
          width={width}
          editor={prompt.editor}
          promptActive={promptActive}
          why={why}
          complete={complete}
        />
      )}
    </ThemeContext.Provider>
  );
}
