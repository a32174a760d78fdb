/**
 * `acai hooks why`'s explanation of one tool call in words (pure), from
 * why-explain.ts: per event, every hook that was considered — which ran and
 * what it answered, which did not and why — and what the chain decided.
 * Everything the log holds is printed inert (a hook's reason is its own text).
 */
import { inertText } from "../../terminal/inert-text.js";
import {
  type ConsideredHookView,
  type EventExplanation,
  explainToolCall,
  type RanHook,
  type WhyLine,
} from "./why-explain.js";

function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return inertText(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

function ranText(run: RanHook): string {
  const answered =
    run.effect === undefined ? run.answered : `${run.answered} (took effect: ${run.effect})`;
  const parts = [`ran${run.async ? " (async)" : ""}, answered ${inertText(answered)}`];
  if (run.reason !== undefined) parts.push(`reason: ${oneLine(run.reason)}`);
  if (run.error !== undefined) parts.push(`error: ${oneLine(run.error)}`);
  const facts = [
    run.exit_code === undefined ? undefined : `exit ${run.exit_code}`,
    run.duration_ms === undefined ? undefined : `${run.duration_ms} ms`,
    run.timed_out ? "timed out" : undefined,
  ].filter((f) => f !== undefined);
  return `${parts.join("; ")}${facts.length > 0 ? ` [${facts.join(", ")}]` : ""}`;
}

/** One considered hook, one line (without indentation). */
function hookLine(view: ConsideredHookView): string {
  const name =
    view.file === undefined
      ? inertText(view.hook)
      : `${inertText(view.hook)} (${inertText(view.file)})`;
  switch (view.status) {
    case "ran":
      return `${name}: ${ranText(view)}`;
    case "not_reached":
      return view.ended_by === undefined
        ? `${name}: not run: matched at first, but not the input as earlier hooks changed it`
        : `${name}: not reached: the chain ended at ${inertText(view.ended_by.hook)}'s ${inertText(view.ended_by.effect)}`;
    case "not_run":
      return `${name}: not run (${inertText(view.why)}) — ${oneLine(view.detail)}`;
  }
}

/** One event's block: its hooks, then what was decided, indented by `indent`. */
export function eventLines(explained: EventExplanation, indent: string): string[] {
  return [
    `${indent}${inertText(explained.event)}:`,
    ...explained.hooks.map((hook) => `${indent}  ${hookLine(hook)}`),
    `${indent}  decided: ${oneLine(explained.decided, 400)}`,
  ];
}

/** The explanation of one tool call in one session, event by event in the order they came. */
export function whyText(toolCallId: string, session: string, lines: readonly WhyLine[]): string {
  const head = `Tool call ${inertText(toolCallId)} in session ${inertText(session)}:`;
  const body = explainToolCall(lines).flatMap((explained) => eventLines(explained, ""));
  return [head, ...body].join("\n");
}
