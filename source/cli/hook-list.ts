import type { UntrustedHookInfo } from "./session-types.js";

/** The untrusted project hooks as an indented list (trust refusal, `acai hooks trust`). */
export function formatHookList(hooks: readonly UntrustedHookInfo[]): string {
  return hooks
    .map((hook) => {
      const details = [
        `events: ${hook.events.join(", ") || `(${hook.note ?? "unknown"})`}`,
        hook.matcher ? `matcher: ${hook.matcher}` : undefined,
        hook.command ? `command: ${hook.command}` : undefined,
        hook.problem ? `problem: ${hook.problem}` : undefined,
      ].filter(Boolean);
      return `  - ${hook.name} (${hook.file})\n      ${details.join("\n      ")}`;
    })
    .join("\n");
}
