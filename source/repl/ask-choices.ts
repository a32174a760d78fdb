/**
 * The answers a question on screen offers, each with its key: a tool call's
 * permission gets "yes", "yes, and don't ask again" for this exact call, for
 * the session or for the project (the latter two keep the suggested rule,
 * only when the session's `keepable` (permissions/keep.ts) allows it and
 * never for a protected path), "no",
 * and "no, and tell the model why"; a protected write and a hook's own
 * question get yes and the two noes. Pure.
 */
import type { AskRequest } from "../hooks/run/activity.js";

export type AskAnswer =
  | { kind: "yes" }
  /** This exact call (tool and input) is allowed again without asking, for this session. */
  | { kind: "yes-call" }
  /** The suggested rule, in force for this session. */
  | { kind: "yes-session"; rule: string }
  /** The suggested rule, written to the project's settings. */
  | { kind: "yes-project"; rule: string }
  /** `because`: what the user wants the model told (a choice with it asks for the text first). */
  | { kind: "no"; because?: string };

export interface AskChoice {
  key: string;
  answer: AskAnswer;
  label: string;
}

export interface ChoiceContext {
  /** Why a rule cannot be kept in the project; undefined: it can. */
  projectRulesOff: string | undefined;
  /** Whether the session may keep this rule; absent: the session's rules cannot change. */
  keepable?: (rule: string) => boolean;
}

export function askChoices(request: AskRequest, context: ChoiceContext): AskChoice[] {
  const yes: AskChoice = { key: "y", answer: { kind: "yes" }, label: "yes" };
  const no: AskChoice = { key: "n", answer: { kind: "no" }, label: "no" };
  const tell: AskChoice = {
    key: "t",
    answer: { kind: "no", because: "" },
    label: "no, and tell the model why",
  };
  if (request.protected !== undefined) {
    return [{ ...yes, label: "yes, this exact write, once" }, no, tell];
  }
  if (request.hook !== undefined || request.toolName === undefined) return [yes, no, tell];
  const choices: AskChoice[] = [
    yes,
    {
      key: "c",
      answer: { kind: "yes-call" },
      label: "yes, and don't ask again for this exact call this session",
    },
  ];
  const rule = request.suggestion;
  if (rule !== undefined && context.keepable?.(rule) === true) {
    choices.push({
      key: "s",
      answer: { kind: "yes-session", rule },
      label: `yes, and don't ask again this session for ${rule}`,
    });
    if (context.projectRulesOff === undefined) {
      choices.push({
        key: "p",
        answer: { kind: "yes-project", rule },
        label: `yes, and don't ask again in this project for ${rule}`,
      });
    }
  }
  choices.push(no, tell);
  return choices;
}

/** A call as a key: the same tool with the same input is the same call. */
export function callKey(toolName: string, input: unknown): string {
  return `${toolName}\u0000${stableJson(input)}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
