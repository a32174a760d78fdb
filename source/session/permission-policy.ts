/**
 * The session's one permission policy (docs/permissions.md): the rules and
 * mode from settings and flags, judged on paths as the file system resolves
 * them, with the session's protected paths and shell parser. Every agent of
 * the session — subagents included — runs under this one object.
 */
import type { PermissionPolicy } from "../permissions/decide.js";
import type { ShellAnalyzer } from "../permissions/shell/analyze.js";
import type { SessionPermissions } from "../permissions/sources.js";
import { landingOrUndefined, sameFileOnDisk } from "../tools/landing.js";
import { type ProtectedPathsInput, sessionProtectedPaths } from "./protected-paths.js";

export interface SessionPolicyInput extends ProtectedPathsInput {
  permissions: Pick<SessionPermissions, "mode" | "rules">;
  /** The agent's working directory. */
  cwd: string;
  shell: ShellAnalyzer;
  /** The OS sandbox runs Bash and the user turned `sandbox.autoAllowBashIfSandboxed` on. */
  autoAllowSandboxedBash: boolean;
}

export function sessionPermissionPolicy(input: SessionPolicyInput): PermissionPolicy {
  return {
    mode: input.permissions.mode,
    rules: input.permissions.rules,
    paths: { projectDir: input.projectDir, homeDir: input.homeDir },
    cwd: input.cwd,
    // Where a path lands, links followed (dangling ones too): what rules and acceptEdits judge.
    realpath: landingOrUndefined,
    // A rule naming one file also catches a hard link to it.
    sameFile: sameFileOnDisk,
    // What the model's tools may not write without the user's own yes.
    guard: sessionProtectedPaths(input),
    shell: input.shell,
    ...(input.autoAllowSandboxedBash ? { autoAllowSandboxedBash: true } : {}),
  };
}
