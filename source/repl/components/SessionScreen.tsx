import { Box, Text } from "ink";
import type { ReplController } from "../controller.js";
import type { EditorState } from "../editor.js";
import type { useCompletion } from "../use-completion.js";
import { AskPrompt } from "./AskPrompt.js";
import { CompletionList } from "./CompletionList.js";
import { LiveArea } from "./LiveArea.js";
import { PromptInput } from "./PromptInput.js";
import { StatusLine } from "./StatusLine.js";
import { WorkingLine } from "./WorkingLine.js";

type UiState = ReturnType<ReplController["getState"]>;

export interface SessionScreenProps {
  ui: UiState;
  width: number;
  editor: EditorState;
  promptActive: boolean;
  why: EditorState | null;
  complete: ReturnType<typeof useCompletion>;
}

/** Below the finished items: what still moves, the question or the working line, the prompt and the status. */
export function SessionScreen({
  ui,
  width,
  editor,
  promptActive,
  why,
  complete,
}: SessionScreenProps) {
  const live = ui.phase !== "done";
  return (
    <Box flexDirection="column">
      <LiveArea view={ui.view} width={width} ask={ui.ask} />
      {ui.ask ? (
        <AskPrompt request={ui.ask} view={ui.askView} why={why} width={width} />
      ) : (
        <WorkingLine view={ui.view} />
      )}
      {live ? (
        <Box marginTop={1}>
          <PromptInput
            editor={editor}
            width={width}
            active={promptActive}
            placeholder={placeholder(ui.phase, ui.busy)}
          />
        </Box>
      ) : null}
      {complete.completion && live ? (
        <CompletionList completion={complete.completion} index={complete.index} width={width} />
      ) : null}
      {live ? (
        <StatusLine
          view={ui.view}
          busy={ui.busy}
          queued={ui.queued}
          width={width}
          {...(ui.mode ? { mode: ui.mode } : {})}
        />
      ) : null}
      {ui.hint && live ? <Text dimColor>{ui.hint}</Text> : null}
    </Box>
  );
}

function placeholder(phase: string, busy: boolean): string {
  if (phase === "starting") return "starting the session… (type ahead)";
  if (phase === "switching") return "starting a new session…";
  if (phase === "exiting") return "exiting…";
  if (busy) return "type to queue the next prompt · Esc aborts";
  return "ask anything · /help";
}
