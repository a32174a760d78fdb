import { Box, Text } from "ink";
import type { AskRequest } from "../../hooks/run/activity.js";
import { inertLines, inertText } from "../../terminal/inert-text.js";
import { summarizeToolInput } from "../format.js";
import { useTheme } from "../theme.js";

/**
 * The one question the user answers with y or n: a tool call that needs
 * permission (why: the rule, the mode or the hook that asks), or a hook's `ask`.
 * A write to a protected path says so in red, with the path (and where it
 * leads) and the call, and is asked for that one write only.
 */
export function AskPrompt({ request, width }: { request: AskRequest; width: number }) {
  const { c } = useTheme();
  const what = request.toolName
    ? `${request.toolName} ${summarizeToolInput(request.toolName, request.toolInput, Math.max(20, width - request.toolName.length - 12))}`
    : request.event;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={c("yellow")} paddingX={1}>
      {request.protected !== undefined ? (
        <Text wrap="wrap">
          <Text color={c("red")}>? protected path </Text>
          {inertText(request.toolName ?? request.event)} wants to write{" "}
          <Text bold>{inertText(request.protected.file)}</Text>
          {request.protected.resolved === undefined
            ? ""
            : ` (leads to ${inertText(request.protected.resolved)})`}
        </Text>
      ) : request.hook === undefined ? (
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
      {request.protected !== undefined && (
        <Text wrap="wrap">
          {"  "}
          {inertText(what)}
        </Text>
      )}
      <Text>
        {request.protected !== undefined ? "Allow this exact write, once? " : "Allow? "}
        <Text bold>[y]</Text>es / <Text bold>[n]</Text>o (Esc = no)
      </Text>
    </Box>
  );
}
