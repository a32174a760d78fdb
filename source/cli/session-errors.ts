import type { UntrustedHookInfo } from "./session-types.js";

const plural = (n: number, word: string): string => `${n} untrusted ${word}${n === 1 ? "" : "s"}`;

/** "1 untrusted hook", "2 untrusted tools", "1 untrusted hook and 1 untrusted tool". */
function untrustedCount(untrusted: readonly UntrustedHookInfo[]): string {
  const tools = untrusted.filter((item) => item.kind === "tool").length;
  const hooks = untrusted.length - tools;
  if (tools === 0) return plural(hooks, "hook");
  if (hooks === 0) return plural(tools, "tool");
  return `${plural(hooks, "hook")} and ${plural(tools, "tool")}`;
}

/** `prepareSession` with `projectHooks: "require-trust"` in a project whose hook set is not trusted. */
export class UntrustedProjectHooksError extends Error {
  override readonly name = "UntrustedProjectHooksError";
  constructor(
    readonly projectDir: string,
    readonly untrusted: UntrustedHookInfo[],
  ) {
    super(`This project has ${untrustedCount(untrusted)} in ${projectDir}.`);
  }
}
