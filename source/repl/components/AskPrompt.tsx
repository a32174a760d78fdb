import { Box, Text } from "ink";
import type { AskRequest } from "../../hooks/activity.js";
import { inertLines, inertText } from "../../terminal/inert-text.js";
import { summarizeToolInput } from "../format.js";
import { useTheme } from "../theme.js";

/**
 * The one question the user answers with y or n: a tool call that needs
 * permission (why: the rule, the mode or the hook that asks), or a hook's `ask`.
 */
export function AskPrompt({ request, width }: { request: AskRequest; width: number }) {
  const { c } = useTheme();
  const what = request.toolName
    ? `${request.toolName} ${summarizeToolInput(request.toolName, request.toolInput, Math.max(20, width - request.toolName.length - 12))}`
    : request.event;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={c("yellow")} paddingX={1}>
      {request.hook === undefined ? (
        <Text wrap="wrap">
          <Text color={c("yellow")}>? permission </Text>
          to run <Text bold>{inertText(what)}</Text>
        </Text>
      ) : (
        <Text wrap="wrap">
          <Text color={c("yellow")}>? hook </Text>
          <Text bold>{inertText(request.hook.name)}</Text> asks before {inertText(what)}
        </Text>
      )}
      <Text wrap="wrap">
        {"  "}
        {inertLines(request.reason) || "(no reason given)"}
      </Text>
      <Text>
        Allow? <Text bold>[y]</Text>es / <Text bold>[n]</Text>o (Esc = no)
      </Text>
    </Box>
  );
}
