/**
 * `acai hooks trust`'s second step: with the set trusted, the project's
 * executables are described (as a session would, cache first) and the
 * secrets they ask for in their describe answers are shown and recorded as
 * confirmed with the trust record (hooks/env-confirmation.ts). A session
 * gives a project executable its requested secrets only then.
 */
import { envRequestKey } from "../hooks/env-confirmation.js";
import { loadHookRegistry } from "../hooks/registry.js";
import { recordConfirmedEnv } from "../hooks/trust.js";
import { withOwnNodeForTypeScript } from "../hooks/typescript-launch.js";
import { runProcess } from "../process/runner.js";
import { inertText } from "../terminal/inert-text.js";
import type { ProjectAssessment } from "./assessment.js";

export interface ConfirmEnvOptions {
  project: Pick<ProjectAssessment, "scan" | "paths" | "root">;
  env: Readonly<Record<string, string>>;
}

/**
 * Describes the trusted project's executables, records what they ask for as
 * confirmed, and returns the lines that show it (none when nothing asks).
 */
export async function confirmProjectEnvRequests(options: ConfirmEnvOptions): Promise<string[]> {
  const { scan, paths, root } = options.project;
  const fingerprint = scan.projectManifest.fingerprint;
  if (fingerprint === null) return [];
  const runner = withOwnNodeForTypeScript(runProcess, {
    execPath: process.execPath,
    version: process.version,
  });
  const registry = await loadHookRegistry(scan, {
    includeProject: true,
    runner,
    env: options.env,
    acaiHome: paths.home,
    projectDir: root.dir,
  });
  const requests = registry.projectEnvRequests.map((hook) => ({
    key: envRequestKey(hook.file, root.dir),
    name: hook.name,
    env: [...new Set(hook.env)].sort(),
  }));
  const recorded = await recordConfirmedEnv({
    acaiHome: paths.home,
    projectDir: root.dir,
    fingerprint,
    env: Object.fromEntries(requests.map((request) => [request.key, request.env])),
  });
  if (!recorded || requests.length === 0) return [];
  return [
    "Secrets the project's hooks ask for in their describe answers (confirmed: they get them):",
    ...requests.map(
      (request) =>
        `  - ${inertText(request.name)} (${inertText(request.key)}): ${request.env.map(inertText).join(", ")}`,
    ),
  ];
}
