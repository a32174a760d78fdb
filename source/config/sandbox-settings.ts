/**
 * The `sandbox` section of a settings file, in Claude Code's shape where it has
 * one (`enabled`, `autoAllowBashIfSandboxed`, `filesystem.allowWrite` /
 * `denyWrite` / `denyRead`, `network.allowedDomains`), plus acai's own
 * `required` (Claude Code's `failIfUnavailable` is read as the same) and
 * `bwrapPath`. What the values mean, and how a project's narrow the user's, is
 * source/sandbox/policy.ts; docs/security.md has the reference.
 */
import { z } from "zod";

const PathList = z.lazy(() => z.array(z.string().trim().min(1).max(4096)).max(256));

/** `host`, `*.host`, `host:port`, `127.0.0.1:PORT`, or `*` (every host). */
const HostPattern = z.lazy(() =>
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(\*|(\*\.)?[a-z0-9_.-]+|\[[0-9a-f:]+\])(:\d{1,5})?$/, {
      error: 'a host pattern is "host", "*.host", "host:port" or "*"',
    }),
);

const SandboxFilesystemSettingsSchema = z.lazy(() =>
  z.object({
    /** More folders (or files) sandboxed processes may write, besides the project and temp folders. User settings only. */
    allowWrite: PathList.optional(),
    /** Paths that stay read-only even inside a writable folder. */
    denyWrite: PathList.optional(),
    /** Paths sandboxed processes cannot read (added to the credential stores acai always hides). */
    denyRead: PathList.optional(),
  }),
);

const SandboxNetworkSettingsSchema = z.lazy(() =>
  z.object({
    /** Hosts reachable through acai's proxy (HTTP(S)_PROXY); `127.0.0.1:PORT` also as a port inside. Empty: no network. */
    allowedDomains: z.array(HostPattern).max(256).optional(),
    /** Hosts never reachable, even when `allowedDomains` matches them. */
    deniedDomains: z.array(HostPattern).max(256).optional(),
  }),
);

export const SandboxSettingsSchema = z.lazy(() =>
  z.object({
    /** Run Bash, dynamic tools, hooks, describe steps and MCP stdio servers in the OS sandbox (default: true where it works). */
    enabled: z.boolean().optional(),
    /** Refuse to start when the sandbox cannot run (default false: a one-line notice, and acai runs without it). */
    required: z.boolean().optional(),
    /** Claude Code's name for `required`. */
    failIfUnavailable: z.boolean().optional(),
    /** Sandboxed Bash commands run without asking in `default` mode (default false). User settings only. */
    autoAllowBashIfSandboxed: z.boolean().optional(),
    /** The bubblewrap executable (default: `bwrap` looked up on PATH). User settings only. */
    bwrapPath: z.string().trim().min(1).max(4096).optional(),
    /** The policy's name in ACAI_SANDBOX_POLICY and reports (default "default"). */
    name: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/)
      .optional(),
    filesystem: SandboxFilesystemSettingsSchema.optional(),
    network: SandboxNetworkSettingsSchema.optional(),
  }),
);

export type SandboxSettings = z.infer<typeof SandboxSettingsSchema>;
