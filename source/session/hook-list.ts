import { inertText } from "../terminal/inert-text.js";
import type { UntrustedHookInfo } from "./types.js";

/** Its events, or why they are not known ("(not described yet)": acai runs no untrusted file). Inert. */
export function hookEventsLabel(hook: UntrustedHookInfo): string {
  return inertText(hook.events.join(", ") || `(${hook.note ?? "unknown"})`);
}

/**
 * The untrusted project hooks as an indented list (trust refusal, `acai hooks
 * trust`). Every field is project text, so each is made inert: an escape
 * sequence in a command cannot rewrite the line the user reviews.
 */
export function formatHookList(hooks: readonly UntrustedHookInfo[]): string {
  return hooks
    .map((hook) => {
      const details = [
        `events: ${hookEventsLabel(hook)}`,
        hook.matcher ? `matcher: ${inertText(hook.matcher)}` : undefined,
        hook.command ? `command: ${inertText(hook.command)}` : undefined,
        hook.env?.length ? `secrets it asks for: ${hook.env.map(inertText).join(", ")}` : undefined,
        hook.sandbox ? `sandbox needs: ${inertText(hook.sandbox)}` : undefined,
        hook.problem ? `problem: ${inertText(hook.problem)}` : undefined,
      ].filter(Boolean);
      return `  - ${inertText(hook.name)} (${inertText(hook.file)})\n      ${details.join("\n      ")}`;
    })
    .join("\n");
}
