import type { UntrustedHookInfo } from "./session-types.js";

/** `prepareSession` with `projectHooks: "require-trust"` in a project whose hook set is not trusted. */
export class UntrustedProjectHooksError extends Error {
  override readonly name = "UntrustedProjectHooksError";
  constructor(
    readonly projectDir: string,
    readonly untrusted: UntrustedHookInfo[],
  ) {
    super(
      `This project has ${untrusted.length} untrusted hook${untrusted.length === 1 ? "" : "s"} in ${projectDir}.`,
    );
  }
}
