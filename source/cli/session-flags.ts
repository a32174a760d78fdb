import type { SessionFlags } from "../session/types.js";
import type { MainOptions } from "./main-options.js";

/** The root command's options that shape a session, for `-p` and the REPL alike. */
export function sessionFlags(options: MainOptions): SessionFlags {
  return {
    ...(options.model ? { model: options.model } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
    ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
    ...(options.appendSystemPrompt !== undefined
      ? { appendSystemPrompt: options.appendSystemPrompt }
      : {}),
    ...(options.resume !== undefined
      ? { resume: { kind: "id" as const, id: options.resume } }
      : options.continue
        ? { resume: { kind: "latest" as const } }
        : {}),
    projectHooks: options.projectHooks,
    assumeYes: options.yes,
    permissions: {
      ...(options.permissionMode ? { mode: options.permissionMode } : {}),
      ...(options.allowedTools.length > 0 ? { allow: options.allowedTools } : {}),
      ...(options.disallowedTools.length > 0 ? { deny: options.disallowedTools } : {}),
    },
    ...(options.name ? { agentName: options.name } : {}),
    ...(options.listen ? { listen: true } : {}),
  };
}
