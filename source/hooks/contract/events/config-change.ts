/**
 * config_change (Claude Code's ConfigChange): a settings file of the session
 * changed on disk while it runs. A gate raised by the session beside the
 * loop: a block keeps the settings the session has (docs/hooks.md "When
 * settings change").
 */
import { z } from "zod";
import { defineEvent } from "./row.js";

const payload = () => ({
  source: z
    .enum(["user_settings", "project_settings", "local_settings"])
    .describe(
      "user_settings: <ACAI_HOME>/settings.json or ~/.claude/settings.json; project_settings: .acai/settings.json or .claude/settings.json; local_settings: their settings.local.json; what matchers see",
    ),
  file_path: z.string().describe("Absolute path of the settings file that changed"),
});

export const configChange = defineEvent({
  name: "config_change",
  agentEvent: "config_change",
  listedAfter: "instructions_loaded",
  claude: "ConfigChange",
  kind: "gate",
  subject: "source",
  honours: ["block"],
  changes: [],
  plainStdoutIsContext: false,
  asyncHooks: "background",
  onBlock: "keep the settings the session has: the change is not applied to it",
  payload,
  fields: (ev) => ({ source: ev.change.source, file_path: ev.change.filePath }),
  matchOn: (ev) => ({ source: ev.change.source }),
  sample: (s) => ({
    type: "config_change",
    change: { source: "project_settings", filePath: `${s.projectDir}/.acai/settings.json` },
  }),
  help: {
    fields: "source (user_settings | project_settings | local_settings), file_path",
    can: "block = keep the session's settings as they are (audit or veto a change mid-session)",
    matcher: { source: "user_settings" },
  },
});
