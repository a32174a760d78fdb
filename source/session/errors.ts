import { inertText } from "../terminal/inert-text.js";
import type { ProjectReview, UntrustedHookInfo } from "./types.js";

/**
 * The project's hooks and dynamic tools, counted by kind, each word after
 * `qualifier`: "1 untrusted hook", "2 project tools", "1 project hook and 1 project tool".
 */
export function countHooksAndTools(
  items: readonly Pick<UntrustedHookInfo, "kind">[],
  qualifier: string,
): string {
  const count = (n: number, word: string): string =>
    `${n} ${qualifier} ${word}${n === 1 ? "" : "s"}`;
  const tools = items.filter((item) => item.kind === "tool").length;
  const hooks = items.length - tools;
  if (tools === 0) return count(hooks, "hook");
  if (hooks === 0) return count(tools, "tool");
  return `${count(hooks, "hook")} and ${count(tools, "tool")}`;
}

/** `prepareSession` with `projectHooks: "require-trust"` in a project whose hook set is not trusted. */
export class UntrustedProjectHooksError extends Error {
  override readonly name = "UntrustedProjectHooksError";
  constructor(
    readonly projectDir: string,
    readonly untrusted: UntrustedHookInfo[],
    readonly review?: ProjectReview,
  ) {
    // The folder name comes from the repository too: inert on the terminal.
    super(
      untrusted.length > 0
        ? `This project has ${countHooksAndTools(untrusted, "untrusted")} in ${inertText(projectDir)}.`
        : `This project's settings in ${inertText(projectDir)} are not trusted.`,
    );
  }
}
