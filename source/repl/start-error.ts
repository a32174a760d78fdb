import { ModelConfigError } from "../models/errors.js";

/**
 * The exit code when no session could start, as `acai -p` has it: 2 for the
 * user's own bad input (a settings file, a bad model or base URL), else 1.
 * The settings module (zod) is already loaded when it threw; it is not
 * imported up front so the first frame does not wait for it.
 */
export async function startFailureCode(error: unknown): Promise<number> {
  if (error instanceof ModelConfigError) return error.badInput ? 2 : 1;
  const { SettingsError } = await import("../config/settings.js");
  return error instanceof SettingsError ? 2 : 1;
}
