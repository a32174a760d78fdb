import { Box, Text } from "ink";
import { formatUsd } from "../../models/pricing.js";
import { inertLines, inertText } from "../../terminal/inert-text.js";
import { formatDuration, formatTokens, wrapWords } from "../format.js";
import { keyTableLines } from "../key-table.js";
import type { Item, Tone } from "../state.js";
import { type ColorName, useTheme } from "../theme.js";
import { HookLine } from "./HookLine.js";
import { HooksPanel } from "./HooksPanel.js";
import { Markdown } from "./Markdown.js";
import { SubagentBlock } from "./SubagentBlock.js";
import { ToolBlock } from "./ToolBlock.js";

const TONE: Record<Tone, ColorName | undefined> = {
  info: "blue",
  warn: "yellow",
  error: "red",
  dim: undefined,
};

const STOP_TEXT: Record<string, string> = {
  aborted: "turn aborted",
  blocked: "turn blocked",
  max_steps: "max steps reached",
  stop_hook_limit: "stop hooks blocked too many times; stopped anyway",
  hook_stop: "a hook stopped the session",
  error: "turn failed",
};

/** A finished item, rendered once inside <Static>. */
export function ItemView({ item, width }: { item: Item; width: number }) {
  const { c } = useTheme();
  switch (item.kind) {
    case "banner":
      return (
        <Text color={c(TONE[item.tone] ?? "gray")} dimColor={item.tone === "dim"} wrap="wrap">
          {wrapWords(`${item.tone === "dim" ? "" : "▌ "}${item.text}`, width)}
        </Text>
      );
    case "user":
      return (
        <Box marginTop={1}>
          <Box flexShrink={0}>
            <Text color={c("blue")} bold>
              {"› "}
            </Text>
          </Box>
          <Text wrap="wrap">{wrapWords(item.text, width - 2)}</Text>
        </Box>
      );
    case "assistant":
      return (
        <Markdown text={item.text} width={width} {...(item.fence ? { fence: item.fence } : {})} />
      );
    case "tool":
      return <ToolBlock tool={item.tool} width={width} />;
    case "hook":
      return <HookLine item={item} width={width} />;
    case "warning":
      return (
        <Text color={c("yellow")} wrap="wrap">
          {wrapWords(`⚠ ${item.source ? `${item.source}: ` : ""}${item.text}`, width)}
        </Text>
      );
    case "error":
      return (
        <Text color={c("red")} wrap="wrap">
          {wrapWords(`✗ ${item.text}`, width)}
        </Text>
      );
    case "turn":
      return <TurnLine item={item} />;
    case "notice":
      return <NoticeView item={item} width={width} />;
    case "detail":
      return (
        <Box flexDirection="column">
          <Text bold>{item.title}</Text>
          <Text wrap="wrap">{wrapWords(item.text, width)}</Text>
        </Box>
      );
    case "ask":
      return <AskLine item={item} />;
    case "hooks":
      return <HooksPanel snapshot={item.snapshot} />;
    case "subagent":
      return <SubagentBlock view={item.view} width={width} />;
    default:
      return item satisfies never;
  }
}

/** How a turn ended, with its time, tokens and cost. */
function TurnLine({ item }: { item: Extract<Item, { kind: "turn" }> }) {
  const { c } = useTheme();
  return (
    <Text color={c(item.stopReason === "aborted" ? "yellow" : "red")} wrap="wrap">
      ■ {STOP_TEXT[item.stopReason] ?? item.stopReason}
      {item.message ? `: ${item.message}` : ""}{" "}
      <Text dimColor>
        ({formatDuration(item.elapsedMs)}, {formatTokens(item.usage.totalTokens)} tok
        {item.costUsd !== undefined ? `, ${formatUsd(item.costUsd)}` : ""})
      </Text>
    </Text>
  );
}

function NoticeView({ item, width }: { item: Extract<Item, { kind: "notice" }>; width: number }) {
  return (
    <Box flexDirection="column">
      {item.title ? <Text bold>{item.title}</Text> : null}
      {item.lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed lines
        <Text key={index} wrap="wrap">
          {wrapWords(line, width)}
        </Text>
      ))}
      {item.table ? <Text>{keyTableLines(item.table, width).join("\n")}</Text> : null}
    </Box>
  );
}

/** What the user answered to a permission question or a hook's `ask`. */
function AskLine({ item }: { item: Extract<Item, { kind: "ask" }> }) {
  const { c } = useTheme();
  return item.name === undefined ? (
    <Text wrap="wrap">
      <Text color={c(item.allowed ? "green" : "red")}>
        {item.allowed ? "✓ you allowed" : "✗ you denied"}
      </Text>{" "}
      <Text bold>{inertText(item.tool ?? "the call")}</Text>
      {item.note ? <Text dimColor> · {inertText(item.note)}</Text> : null}
    </Text>
  ) : (
    <Text wrap="wrap">
      <Text color={c(item.allowed ? "green" : "red")}>
        {item.allowed ? "✓ you allowed" : "✗ you denied"}
      </Text>{" "}
      what hook <Text bold>{inertText(item.name)}</Text> asked: {inertLines(item.reason)}
      {item.note ? <Text dimColor> · {inertText(item.note)}</Text> : null}
    </Text>
  );
}
