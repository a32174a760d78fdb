/**
 * Realistic sample events for `acai hooks test`: the agent event a hook would
 * see, built the way the loop builds it, so the payload comes from the same
 * `buildPayload` the interceptor uses; an `after_tool` result is what the real
 * built-in returns for the sample input (see sample-tools.ts).
 */
import path from "node:path";
import type { AgentEvent } from "../../agent/events.js";
import { TOOL_ALIASES } from "../../hooks/contract/aliases.js";
import type { HookEventName } from "../../hooks/contract/definition.js";
import { SAMPLE_FILE, sampleToolResult } from "./sample-tools.js";

export interface SampleArgs {
  event: HookEventName;
  toolName: string;
  projectDir: string;
  sessionId: string;
  transcriptPath: string;
  model: string;
}

export function sampleToolInput(toolName: string, projectDir: string): Record<string, unknown> {
  const file = path.join(projectDir, SAMPLE_FILE);
  switch (toolName) {
    case "Bash":
      return { command: "npm test", description: "Run the test suite" };
    case "Read":
      return { file_path: file };
    case "Write":
      return { file_path: file, content: 'export const greeting = "hello";\n' };
    case "Edit":
      return { file_path: file, old_string: '"hello"', new_string: '"hello, world"' };
    case "Glob":
      return { pattern: "src/**/*.ts" };
    case "Grep":
      return { pattern: "TODO", path: "src" };
    default:
      return {};
  }
}

const SAMPLE_SUBAGENT = { agentId: "a3f9c2e1-sample", agentType: "general-purpose" };

const USAGE = { inputTokens: 1843, outputTokens: 212, totalTokens: 2055 };

/** The agent event behind `event`, with plausible values everywhere. */
export async function sampleAgentEvent(args: SampleArgs): Promise<AgentEvent> {
  const input = sampleToolInput(args.toolName, args.projectDir);
  const call = { turn: 1, step: 2, toolCallId: "call_test_1", toolName: args.toolName, input };
  switch (args.event) {
    case "session_start":
      return {
        type: "session_start",
        sessionId: args.sessionId,
        model: args.model,
        cwd: args.projectDir,
        transcriptPath: args.transcriptPath,
        source: "startup",
        modelProvider: "openai",
      };
    case "user_prompt":
      return { type: "user_prompt", turn: 1, prompt: "Add a unit test for the greeting module" };
    case "before_model":
      return {
        type: "model_request",
        turn: 1,
        step: 1,
        model: args.model,
        systemPrompt: "You are acai, a coding agent working in a terminal on the user's project.",
        availableTools: ["Bash", "Read", "Write", "Edit", "Glob", "Grep"],
        messageCount: 1,
      };
    case "after_model":
      return {
        type: "model_response",
        turn: 1,
        step: 1,
        model: args.model,
        text: "I'll run the tests first.",
        toolCalls: [{ toolCallId: "call_test_1", toolName: args.toolName, input }],
        usage: USAGE,
        finishReason: "tool-calls",
        durationMs: 1840,
      };
    case "before_tool":
      return { type: "tool_call_start", ...call };
    case "permission_request":
      return {
        type: "permission_request",
        ...call,
        reason: `no rule allows ${args.toolName} in default mode`,
        permissionMode: "default",
        suggestion: args.toolName === "Bash" ? "Bash(npm test:*)" : args.toolName,
      };
    case "after_tool":
      return {
        type: "tool_call_end",
        ...call,
        ...(await sampleToolResult(args.toolName, input, args.projectDir)),
        durationMs: 1260,
      };
    case "after_tool_failure":
      return {
        type: "tool_call_error",
        ...call,
        error:
          args.toolName === "Bash"
            ? "Command failed with exit code 1"
            : `${args.toolName} failed: ENOENT: no such file or directory`,
        interrupted: false,
        blocked: false,
        durationMs: 830,
      };
    case "before_stop":
      return {
        type: "stop_request",
        turn: 1,
        step: 3,
        lastAssistantMessage: "I added tests for the greeting module; all 88 tests pass.",
        stopHookActive: false,
        consecutiveBlocks: 0,
        stopReason: "end_turn",
      };
    case "after_agent":
      return {
        type: "turn_end",
        turn: 1,
        stopReason: "end_turn",
        text: "I added tests for the greeting module; all 88 tests pass.",
        usage: USAGE,
      };
    case "subagent_start":
      return {
        type: "subagent_start",
        ...SAMPLE_SUBAGENT,
        description: "Review the greeting module",
        prompt: "Review source/greeting.ts for bugs and report what you find.",
        toolCallId: "call_test_1",
        depth: 1,
      };
    case "subagent_stop":
      return {
        type: "subagent_stop",
        ...SAMPLE_SUBAGENT,
        turn: 1,
        step: 2,
        lastAssistantMessage: "The greeting module looks fine; no bugs found.",
        stopHookActive: false,
        consecutiveBlocks: 0,
        agentTranscriptPath: args.transcriptPath.replace(
          /\.jsonl$/,
          `/subagents/agent-${SAMPLE_SUBAGENT.agentId}.jsonl`,
        ),
      };
    case "pre_compact":
      return {
        type: "compact_start",
        trigger: "manual",
        customInstructions: "keep the list of failing tests",
        tokensBefore: 152_340,
        messages: 84,
      };
    case "post_compact":
      return {
        type: "compact_end",
        trigger: "manual",
        summary: "The user asked for tests of the greeting module; two are written, one fails.",
        tokensBefore: 152_340,
        tokensAfter: 18_200,
        messagesBefore: 84,
        messagesAfter: 7,
        usage: USAGE,
        durationMs: 9_400,
      };
    case "notification":
      return {
        type: "notification",
        message: "acai is waiting for your input",
        notificationType: "idle_prompt",
      };
    case "message_received":
      return {
        type: "message_received",
        turn: 2,
        message: {
          id: "3b0c9a52-6f0e-4c43-9d55-8f3a51d2c001",
          from: "Coordinator",
          to: "Reviewer",
          content: "TASK: review src/auth.ts",
          broadcast: false,
          sentAt: Date.parse("2026-11-21T10:30:00.000Z"),
          text: "Message from agent Coordinator (reply with @relay:Coordinator <text>):\nTASK: review src/auth.ts",
        },
      };
    case "message_sent":
      return {
        type: "message_sent",
        message: {
          from: "Reviewer",
          to: "Coordinator",
          content: "Reviewed src/auth.ts: two issues, see the PR comments.",
          delivered: ["Coordinator"],
          kept: [],
        },
      };
    case "session_end":
      return {
        type: "session_end",
        reason: "completed",
        totals: { steps: 3, toolCalls: 2, usage: USAGE, durationMs: 41_200 },
      };
    case "output":
      return {
        type: "output",
        turn: 1,
        step: 2,
        text: "Deployed the fix.\n@deploy:staging Release v1.2.3",
      };
    case "pattern":
      return {
        type: "pattern",
        turn: 1,
        step: 2,
        namespace: "deploy",
        target: "staging",
        message: "Release v1.2.3",
        line: 2,
      };
    case "idle":
      return { type: "idle", idleSeconds: 30 };
    default:
      return args.event satisfies never;
  }
}

/** The built-in a hook's tool matcher names first (other agents' spellings count), else Bash. */
export function defaultToolFor(toolMatcher: string | undefined): string {
  if (toolMatcher) {
    for (const alternative of toolMatcher.split("|")) {
      const name = alternative.replace(/^\^|\$$|[()]/g, "").trim();
      for (const [builtin, aliases] of Object.entries(TOOL_ALIASES)) {
        if (name === builtin || (aliases as readonly string[]).includes(name)) return builtin;
      }
    }
  }
  return "Bash";
}
