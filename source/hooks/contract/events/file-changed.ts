/**
 * file_changed (Claude Code's FileChanged): a watched file was added, changed
 * or removed. Raised by the session's watcher beside the loop; an answer's
 * `watchPaths` replaces the paths watched for hooks (docs/hooks.md "Watching
 * files").
 */
import path from "node:path";
import { z } from "zod";
import { defineEvent, OBSERVED } from "./row.js";

const payload = () => ({
  file_path: z.string().describe("Absolute path of the file"),
  event: z
    .enum(["add", "change", "unlink"])
    .describe("add: it appeared; change: its content changed; unlink: it was removed"),
});

export const fileChanged = defineEvent({
  name: "file_changed",
  agentEvent: "file_changed",
  listedAfter: "config_change",
  claude: "FileChanged",
  kind: "observe",
  subject: "source",
  honours: [],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: OBSERVED,
  claudeEnvFile: true,
  payload,
  fields: (ev) => ({ file_path: ev.change.filePath, event: ev.change.event }),
  // Claude Code matches FileChanged on the file's base name (`.envrc|.env`).
  matchOn: (ev) => ({ source: path.basename(ev.change.filePath) }),
  sample: (s) => ({
    type: "file_changed",
    change: { filePath: `${s.projectDir}/.envrc`, event: "change" },
  }),
  help: {
    fields: "file_path, event (add | change | unlink)",
    can: 'observe; {"hookSpecificOutput": {"watchPaths": [...]}} sets the paths watched',
    matcher: { source: ".envrc|.env" },
  },
});
