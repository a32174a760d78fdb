/**
 * What a hook configured under one of Gemini CLI's own event names
 * (`BeforeTool`, `AfterModel`, … in a settings file) receives: the payload
 * acai sends every settings hook, with Gemini CLI's spelling where Gemini's
 * hooks reference differs, so a hook written for Gemini CLI reads it
 * unchanged — `hook_event_name` as the settings key spelled it, a built-in
 * tool's Gemini name as `tool_name` (acai's own stays in `acai_tool_name`),
 * AfterTool's `tool_response` as `{llmContent, returnDisplay}`, AfterAgent's
 * `prompt_response`, and `"model"` for the model's messages in
 * `llm_request`. Names Gemini CLI shares with Claude Code (SessionStart,
 * SessionEnd, Notification) mean Claude Code's payload, unchanged.
 */
import type { Payload } from "./events/fields.js";
import { GEMINI_EVENTS, geminiOnlyNames } from "./events/names.js";
import type { HookEventName } from "./events/table.js";

/** Gemini CLI's names of acai's built-in tools (its tool registry; aliases.ts matches them too). */
const GEMINI_TOOL_NAMES: Readonly<Record<string, string>> = {
  Bash: "run_shell_command",
  Read: "read_file",
  Write: "write_file",
  Edit: "replace",
  Glob: "glob",
  Grep: "grep_search",
};

/** The Gemini-only name `trigger` is, when it names `event`; else undefined. */
export function geminiTrigger(
  event: HookEventName,
  trigger: string | undefined,
): string | undefined {
  if (trigger === undefined || !geminiOnlyNames().includes(trigger)) return undefined;
  return GEMINI_EVENTS[trigger] === event ? trigger : undefined;
}

/** `payload` (acai's, Claude Code's names) as Gemini CLI sends it under `name`. */
export function geminiPayload(name: string, payload: Payload): Payload {
  const out: Payload = { ...payload, hook_event_name: name };
  const tool = typeof payload.tool_name === "string" ? payload.tool_name : undefined;
  const geminiTool = tool === undefined ? undefined : GEMINI_TOOL_NAMES[tool];
  if (tool !== undefined && geminiTool !== undefined) {
    out.tool_name = geminiTool;
    out.acai_tool_name = tool;
  }
  if (name === "AfterTool") {
    const text = typeof payload.tool_output === "string" ? payload.tool_output : "";
    out.tool_response = { llmContent: text, returnDisplay: text };
  }
  if (name === "AfterAgent") out.prompt_response = payload.last_assistant_message;
  if (isObject(payload.llm_request)) out.llm_request = geminiRequest(payload.llm_request);
  return out;
}

/** Gemini CLI's LLMRequest says `model` where acai says `assistant`. */
function geminiRequest(request: Record<string, unknown>): Record<string, unknown> {
  const messages = request.messages;
  if (!Array.isArray(messages)) return request;
  return {
    ...request,
    messages: messages.map((m: unknown) =>
      isObject(m) && m.role === "assistant" ? { ...m, role: "model" } : m,
    ),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
