/**
 * `acai hooks trust`'s second step: with the set trusted, the project's
 * executables (hooks and dynamic tools) are described (as a session would, cache first) and the
 * secrets they ask for in their describe answers are shown and recorded as
 * confirmed with the trust record (project/env-confirmation.ts). A session
 * gives a project executable its requested secrets only then.
 */

import { envRequestKey } from "../config/env-confirmation.js";
import { loadHookRegistry } from "../hooks/discover/registry.js";
import { recordConfirmedEnv } from "../hooks/discover/trust.js";
import { withOwnNodeForTypeScript } from "../hooks/run/typescript-launch.js";
import { runProcess } from "../process/runner.js";
import { inertText } from "../terminal/inert-text.js";
import { loadTools } from "../tools/registry.js";
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
  const where = { runner, env: options.env, acaiHome: paths.home, projectDir: root.dir };
  const [registry, tools] = await Promise.all([
    loadHookRegistry(scan, { includeProject: true, ...where }),
    loadTools({ includeProject: true, ...where }),
  ]);
  const requests = [...registry.projectEnvRequests, ...tools.projectEnvRequests].map((item) => ({
    key: envRequestKey(item.file, root.dir),
    name: item.name,
    env: [...new Set(item.env)].sort(),
  }));
  const recorded = await recordConfirmedEnv({
    acaiHome: paths.home,
    projectDir: root.dir,
    fingerprint,
    env: Object.fromEntries(requests.map((request) => [request.key, request.env])),
  });
  if (!recorded || requests.length === 0) return [];
  return [
    "Secrets the project's hooks and tools ask for in their describe answers (confirmed: they get them):",
    ...requests.map(
      (request) =>
        `  - ${inertText(request.name)} (${inertText(request.key)}): ${request.env.map(inertText).join(", ")}`,
    ),
  ];
}
