/**
 * A hook's environment: the parent's minus secret-looking variables (unless the
 * hook lists them in `env`), plus the variables of hooks.md §3.
 */
import type { HookDefinition, HookEventName } from "./definition.js";

/**
 * `*_API_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD`, `*_CREDENTIALS`, any case.
 * The bare names (`TOKEN`, `API_KEY`, …) count too.
 */
const SECRET_NAME = /(?:^|_)(?:API_KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS)$/i;

export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

export interface HookEnvironmentOptions {
  parentEnv: Readonly<Record<string, string>>;
  hook: Pick<HookDefinition, "env">;
  projectDir: string;
  sessionId: string;
  event: HookEventName;
}

/** The environment minus secret-looking variables, except those named in `allowed`. */
export function withoutSecrets(
  parentEnv: Readonly<Record<string, string>>,
  allowed: readonly string[] = [],
): Record<string, string> {
  const keep = new Set(allowed);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value === undefined) continue;
    if (looksSecret(name) && !keep.has(name)) continue;
    env[name] = value;
  }
  return env;
}

export function buildHookEnvironment(options: HookEnvironmentOptions): Record<string, string> {
  const env = withoutSecrets(options.parentEnv, options.hook.env);
  env.ACAI_PROJECT_DIR = options.projectDir;
  env.CLAUDE_PROJECT_DIR = options.projectDir;
  env.ACAI_SESSION_ID = options.sessionId;
  env.ACAI_HOOK_EVENT = options.event;
  env.HOOK_ACTION = "execute";
  return env;
}
