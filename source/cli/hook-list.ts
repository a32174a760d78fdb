import type { UntrustedHookInfo } from "./session-types.js";

/** Its events, or why they are not known ("(not described yet)": acai runs no untrusted file). */
export function hookEventsLabel(hook: UntrustedHookInfo): string {
  return hook.events.join(", ") || `(${hook.note ?? "unknown"})`;
}

/** The untrusted project hooks as an indented list (trust refusal, `acai hooks trust`). */
export function formatHookList(hooks: readonly UntrustedHookInfo[]): string {
  return hooks
    .map((hook) => {
      const details = [
        `events: ${hookEventsLabel(hook)}`,
        hook.matcher ? `matcher: ${hook.matcher}` : undefined,
        hook.command ? `command: ${hook.command}` : undefined,
        hook.problem ? `problem: ${hook.problem}` : undefined,
      ].filter(Boolean);
      return `  - ${hook.name} (${hook.file})\n      ${details.join("\n      ")}`;
    })
    .join("\n");
}
