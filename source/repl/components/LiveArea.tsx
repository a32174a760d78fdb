import { Box, Text } from "ink";
import type { AskRequest } from "../../hooks/run/activity.js";
import { toolGate, type ViewState } from "../state.js";
import { Elapsed } from "./Elapsed.js";
import { Markdown } from "./Markdown.js";
import { Spinner } from "./Spinner.js";
import { SubagentBlock } from "./SubagentBlock.js";
import { ToolBlock } from "./ToolBlock.js";

/** What is still moving: the open line of streamed text, running tools, running hooks. */
export function LiveArea({
  view,
  width,
  ask = null,
}: {
  view: ViewState;
  width: number;
  ask?: AskRequest | null;
}) {
  const gate = toolGate(view, ask);
  return (
    <Box flexDirection="column">
      {view.stream?.text ? (
        <Markdown
          text={view.stream.text}
          width={width}
          {...(view.stream.fence ? { fence: view.stream.fence } : {})}
        />
      ) : null}
      {view.tools.map((tool) => (
        <ToolBlock
          key={tool.toolCallId}
          tool={tool}
          width={width}
          {...(gate?.toolCallId === tool.toolCallId ? { waitingFor: gate.label } : {})}
        />
      ))}
      {view.subagents.map((subagent) => (
        <SubagentBlock key={subagent.agentId} view={subagent} width={width} />
      ))}
      {view.hooks.map((running) => (
        <Text key={running.key} wrap="truncate-end">
          <Spinner />{" "}
          {running.statusMessage === undefined ? (
            <>
              hook <Text bold>{running.hook.name}</Text> <Text dimColor>{running.event}</Text>
            </>
          ) : (
            <>
              {running.statusMessage} <Text dimColor>(hook {running.hook.name})</Text>
            </>
          )}{" "}
          <Elapsed since={running.startedAt} />
        </Text>
      ))}
    </Box>
  );
}
