import { Box, Text } from "ink";
import type { AskRequest } from "../../hooks/run/activity.js";
import { inertLines, inertText } from "../../terminal/inert-text.js";
import type { AskView } from "../controller/store.js";
import type { EditorState } from "../editor.js";
import { summarizeToolInput } from "../format.js";
import { textWidth } from "../text-width.js";
import { useTheme } from "../theme.js";
import { DiffView } from "./DiffView.js";
import { PromptInput } from "./PromptInput.js";

/**
 * The question on screen: a tool call that needs permission (why: the rule,
 * the mode or the hook that asks), or a hook's `ask`; for a Write or Edit,
 * the diff of what it will change. Its answers, one key each (AskView's
 * choices); after `n`, the reason for the model being typed. A write to a
 * protected path says so in red, with the path (and where it leads) and the
 * call, and is asked for that one write only.
 */
export function AskPrompt({
  request,
  view,
  why = null,
  width,
}: {
  request: AskRequest;
  view: AskView | null;
  why?: EditorState | null;
  width: number;
}) {
  const { c } = useTheme();
  const inner = Math.max(20, width - 4);
  const what = request.toolName
    ? `${request.toolName} ${summarizeToolInput(request.toolName, request.toolInput, Math.max(20, width - textWidth(request.toolName) - 12))}`
    : request.event;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={c("yellow")} paddingX={1}>
      <Header request={request} what={what} />
      <Text wrap="wrap">
        {"  "}
        {inertLines(request.reason) || "(no reason given)"}
      </Text>
      {request.protected !== undefined && (
        <Text wrap="wrap">
          {"  "}
          {inertText(what)}
        </Text>
      )}
      {view?.preview ? <DiffView preview={view.preview} width={inner} /> : null}
      {why === null ? (
        <Choices request={request} view={view} />
      ) : (
        <Box flexDirection="column">
          <Text>Tell the model why (Enter sends · Esc: just no):</Text>
          <PromptInput editor={why} active width={inner} />
        </Box>
      )}
    </Box>
  );
}

function Header({ request, what }: { request: AskRequest; what: string }) {
  const { c } = useTheme();
  if (request.protected !== undefined) {
    return (
      <Text wrap="wrap">
        <Text color={c("red")}>? protected path </Text>
        {inertText(request.toolName ?? request.event)} wants to write{" "}
        <Text bold>{inertText(request.protected.file)}</Text>
        {request.protected.resolved === undefined
          ? ""
          : ` (leads to ${inertText(request.protected.resolved)})`}
      </Text>
    );
  }
  if (request.hook === undefined) {
    return (
      <Text wrap="wrap">
        <Text color={c("yellow")}>? permission </Text>
        to run <Text bold>{inertText(what)}</Text>
      </Text>
    );
  }
  return (
    <Text wrap="wrap">
      <Text color={c("yellow")}>? hook </Text>
      <Text bold>{inertText(request.hook.name)}</Text> asks before {inertText(what)}
    </Text>
  );
}

function Choices({ request, view }: { request: AskRequest; view: AskView | null }) {
  const choices = view?.choices ?? [];
  return (
    <Box flexDirection="column">
      <Text>{request.protected !== undefined ? "Allow this exact write, once?" : "Allow?"}</Text>
      {choices.map((choice) => (
        <Text key={choice.key} wrap="wrap">
          {"  "}
          <Text bold>[{choice.key}]</Text> {inertText(choice.label)}
        </Text>
      ))}
      <Text dimColor>{"  "}Esc = no</Text>
    </Box>
  );
}
