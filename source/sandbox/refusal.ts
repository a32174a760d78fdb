/**
 * When a sandboxed tool fails because the sandbox refused something, the model
 * and the user are told what (the path, the host) and how to allow it — a
 * note appended to the command's stderr, so it is part of the tool result.
 * acai never runs the command again outside the sandbox.
 *
 * Read from the output: "Read-only file system" (EROFS: a write outside the
 * writable folders, or to a read-only path inside them), "Permission denied"
 * or "No such file or directory" on a path the policy hides or protects, and
 * a refused or unreachable network (no network, or a host the proxy refused).
 */
import path from "node:path";
import type { ProcessRunner, RunResult } from "../process/types.js";
import { isInside, type SandboxPolicy } from "./policy.js";

const PATH_IN_LINE = /(?:^|[\s'"`(])((?:~|\.{1,2})?\/[^\s'"`:)]*|[\w.-]+\/[^\s'"`:)]*)/g;
const NETWORK_FAILURE =
  /Could not resolve host|Temporary failure in name resolution|Name or service not known|Network is unreachable|getaddrinfo E(?:AI_AGAIN|NOTFOUND)|Connection refused|ECONNREFUSED|ENETUNREACH/i;

export interface RefusalContext {
  policy: SandboxPolicy;
  cwd: string;
  homeDir: string;
  /** Hosts the proxy refused during the run. */
  refusedHosts: readonly string[];
  /** The user's settings file, named in the advice. */
  settingsFile: string;
}

export function refusalNote(output: string, context: RefusalContext): string | undefined {
  const lines = [...pathRefusals(output, context), ...networkRefusals(output, context)];
  if (lines.length === 0) return undefined;
  return [
    "[acai sandbox] This command ran in acai's OS sandbox, which refused:",
    ...lines.map((line) => `- ${line}`),
    "It was not run again outside the sandbox.",
  ].join("\n");
}

function pathRefusals(output: string, context: RefusalContext): string[] {
  const found = new Map<string, string>();
  for (const line of output.split("\n").slice(0, 2000)) {
    const erofs = /Read-only file system/i.test(line);
    const denied = /Permission denied|No such file or directory|Operation not permitted/i.test(
      line,
    );
    if (!erofs && !denied) continue;
    for (const match of line.matchAll(PATH_IN_LINE)) {
      const file = absolute(match[1]!, context);
      if (found.has(file)) continue;
      const why = explainPath(file, erofs, context);
      if (why) found.set(file, why);
    }
  }
  return [...found.values()].slice(0, 10);
}

function explainPath(file: string, erofs: boolean, context: RefusalContext): string | undefined {
  const { policy, settingsFile } = context;
  const hidden = policy.denyRead.find((p) => isInside(file, p));
  if (hidden) {
    return `reading ${file}: ${hidden} is unreadable in the sandbox (a credential store or acai's trust records). If a tool really needs it, remove it from sandbox.filesystem.denyRead in ${settingsFile} (acai's built-in list cannot be lifted) or run the command yourself.`;
  }
  const readOnly = policy.readOnly.find((p) => isInside(file, p));
  if (readOnly && (erofs || policy.write.some((w) => isInside(file, w)))) {
    return `writing ${file}: ${readOnly} is read-only in the sandbox (acai's own configuration, the project's trusted hooks and settings, or git's config and hooks), so the agent cannot rewrite its guardrails. Change it yourself outside acai.`;
  }
  if (erofs && !policy.write.some((w) => isInside(file, w))) {
    return `writing ${file}: the sandbox may write only in ${policy.write.join(", ")}. To allow more, add the folder to sandbox.filesystem.allowWrite in ${settingsFile}.`;
  }
  return undefined;
}

function networkRefusals(output: string, context: RefusalContext): string[] {
  const { policy, settingsFile, refusedHosts } = context;
  const hosts = [...new Set(refusedHosts)].slice(0, 10);
  if (hosts.length > 0) {
    return [
      `connecting to ${hosts.join(", ")}: not in the sandbox's allowed hosts. To allow one, add it to sandbox.network.allowedDomains in ${settingsFile}.`,
    ];
  }
  if (policy.network.kind === "all" || !NETWORK_FAILURE.test(output)) return [];
  const allowed =
    policy.network.kind === "hosts"
      ? ` (allowed: ${policy.network.allow.join(", ")}, through HTTP(S)_PROXY)`
      : "";
  return [
    `the network: the sandbox has ${policy.network.kind === "none" ? "no network" : "only some hosts"}${allowed}. To allow a host, add it to sandbox.network.allowedDomains in ${settingsFile}.`,
  ];
}

function absolute(file: string, context: RefusalContext): string {
  if (file.startsWith("~/")) return path.join(context.homeDir, file.slice(2));
  return path.resolve(context.cwd, file);
}

/** The tools' runner with the note appended to stderr when the output shows a refusal. */
export function withRefusalNotes(
  runner: ProcessRunner,
  context: Omit<RefusalContext, "cwd" | "refusedHosts">,
  takeRefusedHosts: () => string[],
): ProcessRunner {
  return async (options) => {
    const result: RunResult = await runner(options);
    const refusedHosts = takeRefusedHosts();
    if (result.stderr === "" && result.exitCode === 0 && refusedHosts.length === 0) return result;
    const note = refusalNote(`${result.stdout}\n${result.stderr}`, {
      ...context,
      cwd: options.cwd,
      refusedHosts,
    });
    if (note === undefined) return result;
    const stderr =
      result.stderr === "" || result.stderr.endsWith("\n") ? result.stderr : `${result.stderr}\n`;
    return { ...result, stderr: `${stderr}${note}\n` };
  };
}
