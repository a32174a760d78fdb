import { Text } from "ink";
import { formatTokens } from "../format.js";
import type { ViewState } from "../state.js";
import { Elapsed } from "./Elapsed.js";
import { Spinner } from "./Spinner.js";

/** Characters a token stands for, roughly: the count grows while an answer streams, before its usage is known. */
const CHARS_PER_TOKEN = 4;

/**
 * What moves while the model works: a spinner, the turn's elapsed time and
 * its tokens so far (the usage the model reported, plus an estimate of the
 * text streaming now, marked `~`), and how to interrupt.
 */
export function WorkingLine({ view }: { view: ViewState }) {
  const turn = view.turn;
  if (!turn) return null;
  const reported = turn.usage.outputTokens;
  const streaming = view.stream ? Math.ceil(view.stream.text.length / CHARS_PER_TOKEN) : 0;
  const tokens = `${streaming > 0 ? "~" : ""}${formatTokens(reported + streaming)}`;
  return (
    <Text wrap="truncate-end">
      <Spinner /> {turn.aborting ? "aborting…" : "working…"}{" "}
      <Text dimColor>
        (<Elapsed since={turn.startedAt} /> · ↓ {tokens} tokens · Esc to interrupt)
      </Text>
    </Text>
  );
}
