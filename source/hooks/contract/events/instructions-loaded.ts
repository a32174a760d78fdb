/** instructions_loaded (Claude Code's InstructionsLoaded): an instruction file is in the session's system prompt. */
import { z } from "zod";
import { defineEvent, OBSERVED } from "./row.js";

const payload = () => ({
  file_path: z.string().describe("Absolute path of the instruction file"),
  memory_type: z
    .enum(["User", "Project"])
    .describe("User: <ACAI_HOME>/AGENTS.md; Project: the project's AGENTS.md or CLAUDE.md"),
  load_reason: z
    .enum(["session_start", "compact"])
    .describe(
      "session_start: the session began; compact: it goes on after a compaction; what matchers see",
    ),
});

export const instructionsLoaded = defineEvent({
  name: "instructions_loaded",
  agentEvent: "instructions_loaded",
  listedAfter: "session_start",
  claude: "InstructionsLoaded",
  kind: "observe",
  subject: "source",
  honours: [],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: OBSERVED,
  payload,
  fields: (ev) => ({
    file_path: ev.file.path,
    memory_type: ev.file.memoryType,
    load_reason: ev.loadReason,
  }),
  // Claude Code matches InstructionsLoaded on the load reason.
  matchOn: (ev) => ({ source: ev.loadReason }),
  sample: (s) => ({
    type: "instructions_loaded",
    file: { path: `${s.projectDir}/AGENTS.md`, memoryType: "Project" },
    loadReason: "session_start",
  }),
  help: {
    fields: "file_path, memory_type (User | Project), load_reason (session_start | compact)",
    can: "observe (audit which instructions the model got)",
    matcher: { source: "session_start" },
  },
});
