import path from "node:path";
import { projectInstructionFile } from "../project/instructions.js";
import { inertText } from "../terminal/inert-text.js";
import { assessProject, type ProjectAssessment } from "./assessment.js";
import { UntrustedProjectHooksError } from "./errors.js";
import type { ProjectHooksMode, ProjectTrustState } from "./types.js";

export interface CheckProjectTrustOptions {
  cwd: string;
  env: Readonly<Record<string, string>>;
  homeDir: string;
}

/**
 * `-p`'s rule: with anything project-controlled present, `off` leaves it all
 * out, `trust-once` takes it for this run, and `require-trust` takes it only
 * when the user trusted exactly this set, else refuses (exit 4) with the review.
 * `taken`: the set an earlier session of the same run took with `trust-once`
 * (the REPL's `/clear`, `/model`): a later session takes the project only while
 * it is that same set, so files added or changed meanwhile (by the model) are
 * not picked up without a review.
 */
export function decideProjectInclusion(
  project: ProjectAssessment,
  mode: ProjectHooksMode,
  taken?: string | null,
): boolean {
  if (project.status === "nothing") return false;
  switch (mode) {
    case "off":
      return false;
    case "trust-once":
      if (taken !== undefined && taken !== project.scan.projectFingerprint) return refuse(project);
      return true;
    case "require-trust":
      if (project.status === "trusted") return true;
      return refuse(project);
    default:
      return mode satisfies never;
  }
}

function refuse(project: ProjectAssessment): never {
  throw new UntrustedProjectHooksError(project.root.dir, project.review.items, project.review);
}

/** Says, once, that the project's hooks, tools and settings were left out (`--no-project`). */
export function projectLeftOut(project: ProjectAssessment, included: boolean): string[] {
  if (included || (project.status === "nothing" && project.unreadSettings.length === 0)) return [];
  const instructions = projectInstructionFile(project.root.dir);
  const what = instructions
    ? `hooks, tools, settings and ${path.basename(instructions)}`
    : "hooks, tools and settings";
  return [`This project's ${what} in ${inertText(project.root.dir)} are not used (--no-project).`];
}

/** Whether this project's hooks may run, without running anything. */
export async function checkProjectTrust(
  options: CheckProjectTrustOptions,
): Promise<ProjectTrustState> {
  const project = await assessProject(options);
  if (project.status === "nothing") {
    return {
      status: "no-project-hooks",
      untrusted: [],
      review: project.review,
      trust: async () => {},
    };
  }
  return {
    status: project.status,
    untrusted: project.review.items,
    review: project.review,
    trust: project.trust,
    confirmEnvRequests: async () => {
      // Describing runs project code: only the trust command asks for it, loaded then.
      const { confirmProjectEnvRequests } = await import("./env-requests.js");
      return confirmProjectEnvRequests({ project, env: options.env });
    },
  };
}
