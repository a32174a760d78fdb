import { Box, Text, useInput } from "ink";
import { useState } from "react";
import { hookEventsLabel } from "../../session/hook-list.js";
import type { UntrustedHookInfo } from "../../session/types.js";
import { inertText } from "../../terminal/inert-text.js";
import { wrapWords } from "../format.js";
import { useTheme } from "../theme.js";

const CHOICES = [
  { key: "t", label: "Trust this set of project hooks, tools and settings and use them" },
  { key: "n", label: "Run without any of them this session" },
] as const;

const INTRO =
  "They run as programs on your machine at points of the agent loop. Trust is recorded for this exact set; any change asks again.";
const CHOICE_INDENT = "      ";

export type TrustChoice = "trust" | "off";

/**
 * Shown before the session starts when the project's hooks are not trusted.
 * Every field is project text and goes through `inertText`: an escape
 * sequence or `\r` in a command must not redraw what the user reviews.
 */
export function TrustScreen({
  hooks,
  review = [],
  onChoose,
  width = 80,
}: {
  hooks: UntrustedHookInfo[];
  /** Root, changes since the last trust, settings: lines already made inert (session/review.ts). */
  review?: string[];
  onChoose: (choice: TrustChoice) => void;
  width?: number;
}) {
  const { c } = useTheme();
  const inner = width - 4; // border and padding
  const [selected, setSelected] = useState(0);
  const [chosen, setChosen] = useState(false);
  const choose = (index: number) => {
    if (chosen) return;
    setChosen(true);
    onChoose(index === 0 ? "trust" : "off");
  };
  useInput((input, key) => {
    if (key.upArrow || key.downArrow || key.tab) setSelected((s) => 1 - s);
    else if (key.return) choose(selected);
    else if (input === "t" || input === "y") choose(0);
    else if (input === "n") choose(1);
  });
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold color={c("yellow")} wrap="wrap">
        {wrapWords("This project has hooks, tools or settings you have not trusted", inner)}
      </Text>
      <Text wrap="wrap">{wrapWords(INTRO, inner)}</Text>
      {hooks.map((hook) => (
        <TrustItem key={`${hook.file}:${hook.name}`} hook={hook} />
      ))}
      {review.length > 0 ? (
        <Box flexDirection="column" marginTop={1}>
          {review.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of lines
            <Text key={index} wrap="wrap">
              {line}
            </Text>
          ))}
        </Box>
      ) : null}
      <Box flexDirection="column" marginTop={1}>
        {CHOICES.map((choice, index) => (
          <Text key={choice.key} inverse={index === selected} wrap="wrap">
            {`${index === selected ? "›" : " "} [${choice.key}] `}
            {wrapWords(choice.label, inner - CHOICE_INDENT.length).replaceAll(
              "\n",
              `\n${CHOICE_INDENT}`,
            )}
          </Text>
        ))}
      </Box>
    </Box>
  );
}

/** One hook or tool of the review: name, events, matcher, file, and what it asks for. */
function TrustItem({ hook }: { hook: UntrustedHookInfo }) {
  const { c } = useTheme();
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="wrap">
        <Text bold>{inertText(hook.name)}</Text>{" "}
        <Text dimColor>
          {hook.events.length > 0 ? "on " : ""}
          {hookEventsLabel(hook)}
        </Text>
        {hook.matcher ? <Text dimColor> · matcher {inertText(hook.matcher)}</Text> : null}
      </Text>
      <Text wrap="truncate-start" dimColor>
        {"  "}
        {inertText(hook.file)}
      </Text>
      {hook.problem ? (
        <Text wrap="wrap" color={c("red")}>
          {"  problem: "}
          {inertText(hook.problem)}
        </Text>
      ) : null}
      {hook.env && hook.env.length > 0 ? (
        <Text wrap="wrap" color={c("yellow")}>
          {"  secrets it asks for: "}
          {hook.env.map(inertText).join(", ")}
        </Text>
      ) : null}
      {hook.sandbox ? (
        <Text wrap="wrap" color={c("yellow")}>
          {"  sandbox needs: "}
          {inertText(hook.sandbox)}
        </Text>
      ) : null}
      {/* An executable's command is its file: shown once. */}
      {hook.command && hook.command !== hook.file ? (
        <Text wrap="wrap">
          {"  $ "}
          {inertText(hook.command)}
        </Text>
      ) : null}
    </Box>
  );
}
