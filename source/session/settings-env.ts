/**
 * The environment a session runs with: the process's, plus the `env` of the
 * settings files (acai's and Claude Code's), later files winning. A project's
 * `env` (applied only once the project is trusted) may not set what acai
 * itself reads to choose its model server, its credentials, its sandbox or
 * the programs it finds on PATH, or where telemetry goes (`OTEL_*`): a project
 * could otherwise send the user's API key elsewhere, put its own `bwrap` first
 * or point the user's telemetry at its own collector. Those names are left out,
 * with a warning naming them.
 */
import type { LoadedSettings } from "../config/settings.js";

/** Names a project's `env` may not set (acai's own configuration, the loader, the PATH). */
const ACAI_OWN =
  /^(PATH|HOME|SHELL|ACAI_.*|OPENAI_.*|ANTHROPIC_.*|CLAUDE_.*|NODE_.*|LD_.*|DYLD_.*|BASH_ENV|ENV|TMPDIR|HTTPS?_PROXY|ALL_PROXY|NO_PROXY|https?_proxy|all_proxy|no_proxy|SSL_CERT_.*|OTEL_.*|.*_BASE_URL|.*_API_KEY)$/;

export interface SessionEnv {
  env: Readonly<Record<string, string>>;
  warnings: string[];
}

export function sessionEnv(
  processEnv: Readonly<Record<string, string>>,
  loaded: Pick<LoadedSettings, "user" | "project" | "settingsFiles">,
  includeProject: boolean,
): SessionEnv {
  const user = loaded.user.env ?? {};
  const project = includeProject ? (loaded.project.env ?? {}) : {};
  const refused = Object.keys(project).filter((name) => ACAI_OWN.test(name));
  const allowed = Object.fromEntries(
    Object.entries(project).filter(([name]) => !ACAI_OWN.test(name)),
  );
  const warnings =
    refused.length === 0
      ? []
      : [
          `The project's settings set ${refused.join(", ")} in "env"; a project may not set what acai reads for its model server, credentials, sandbox or PATH, so ${refused.length > 1 ? "they are" : "it is"} left out. Set ${refused.length > 1 ? "them" : "it"} in your own settings (~/.acai/settings.json) or your shell instead.`,
        ];
  return { env: { ...processEnv, ...user, ...allowed }, warnings };
}
