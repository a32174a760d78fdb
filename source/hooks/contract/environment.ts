/**
 * A hook's environment: the parent's minus secrets (the shared policy of
 * source/process/secrets.ts, unless the hook lists them in `env`), plus the
 * variables of hooks.md §3.
 */
import { withoutSecrets } from "../../process/secrets.js";
import type { HookDefinition, HookEventName } from "./definition.js";
import { eventRow } from "./events/table.js";

export { nameLooksSecret as looksSecret, withoutSecrets } from "../../process/secrets.js";

export interface HookEnvironmentOptions {
  parentEnv: Readonly<Record<string, string>>;
  hook: Pick<HookDefinition, "env">;
  projectDir: string;
  sessionId: string;
  event: HookEventName;
  /**
   * This hook's `CLAUDE_ENV_FILE` (session_start only): the `export NAME=value`
   * lines it appends there become part of the Bash tool's environment.
   */
  envFile?: string;
}

/**
 * acai's own variables are set after scrubbing: `ACAI_SESSION_ID` has a secret
 * word in its name, and a hook must get it (and cannot be handed a parent's
 * value for it).
 */
export function buildHookEnvironment(options: HookEnvironmentOptions): Record<string, string> {
  const env = withoutSecrets(options.parentEnv, options.hook.env);
  env.ACAI_PROJECT_DIR = options.projectDir;
  env.CLAUDE_PROJECT_DIR = options.projectDir;
  env.ACAI_SESSION_ID = options.sessionId;
  env.ACAI_HOOK_EVENT = options.event;
  env.HOOK_ACTION = "execute";
  // Only session_start hooks may set the shell's variables, as in Claude Code.
  if (eventRow(options.event).claudeEnvFile === true && options.envFile !== undefined) {
    env.CLAUDE_ENV_FILE = options.envFile;
  } else {
    delete env.CLAUDE_ENV_FILE;
  }
  return env;
}
