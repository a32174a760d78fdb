/** session_start (Claude Code's SessionStart): a session starts, resumes, or goes on after a compaction. */
import { z } from "zod";
import { defineEvent, GATE } from "./row.js";

const payload = () => ({
  source: z
    .enum(["startup", "resume", "compact", "clear"])
    .describe(
      "startup: a new session; resume: --continue/--resume; compact: after a compaction; clear: after the REPL's /clear",
    ),
  model: z.string(),
  model_provider: z.string().optional().describe("openai, anthropic, replay, …"),
  system_prompt: z.string().optional().describe("The session's system prompt"),
  sandbox: z
    .looseObject({
      enabled: z.boolean(),
      policy: z.string().nullable(),
      containment: z.enum(["namespace", "marker"]),
      network: z.enum(["none", "hosts", "all"]).nullable(),
      reason: z.string().optional(),
    })
    .optional()
    .describe("The OS sandbox of tools and hooks in this session (docs/security.md)"),
  args: z
    .object({ ui: z.enum(["shell", "print"]), agent: z.string() })
    .optional()
    .describe(
      "How the session was started (Agent Hooks): ui shell (the REPL) or print (acai -p); agent default",
    ),
});

export const sessionStart = defineEvent({
  name: "session_start",
  agentEvent: "session_start",
  claude: "SessionStart",
  gemini: ["SessionStart"],
  agentHooks: { name: "pre-session" },
  kind: "gate",
  subject: "source",
  honours: GATE,
  changes: [],
  plainStdoutIsContext: true,
  asyncHooks: "background",
  onBlock: "refuse to start the session",
  claudeEnvFile: true,
  plugins: {
    openclaw: ["session-start", "gateway-start"],
    a3s: { name: "SessionStart", snake: "session_start" },
  },
  payload,
  fields: (ev) => ({
    source: ev.source,
    model: ev.model,
    ...(ev.modelProvider === undefined ? {} : { model_provider: ev.modelProvider }),
    ...(ev.systemPrompt === undefined ? {} : { system_prompt: ev.systemPrompt }),
    // A copy: the schema's object is loose (an index signature the interface lacks).
    ...(ev.sandbox === undefined ? {} : { sandbox: { ...ev.sandbox } }),
    ...(ev.args === undefined ? {} : { args: { ...ev.args } }),
  }),
  matchOn: (ev) => ({ source: ev.source }),
  sample: (s) => ({
    type: "session_start",
    sessionId: s.sessionId,
    model: s.model,
    cwd: s.projectDir,
    transcriptPath: s.transcriptPath,
    source: "startup",
    modelProvider: "openai",
    args: { ui: "print", agent: "default" },
  }),
  help: {
    fields: "source (startup|resume), model, model_provider, system_prompt",
    can: 'add context ({"context": "..."} or plain stdout); block = refuse to start',
  },
});
