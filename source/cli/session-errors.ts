/**
 * What a session that could not start says to the user, and with which exit
 * code: the untrusted project's review, a bad settings file, a model that
 * cannot be reached. Shared by `acai -p` and `acai acp` (which shows it to
 * the editor).
 */
import { SettingsError } from "../config/settings.js";
import { ModelConfigError } from "../models/errors.js";
import { RelayError } from "../relay/message.js";
import { UntrustedProjectHooksError } from "../session/errors.js";
import { formatHookList } from "../session/hook-list.js";
import { ResumeError } from "../session/resume/find.js";
import { reviewLines } from "../session/review.js";
import { CliError, formatUnexpected } from "./errors.js";
import { EXIT, type ExitCode } from "./exit-codes.js";

export function classify(error: unknown, debug: boolean): { code: ExitCode; message: string } {
  if (error instanceof UntrustedProjectHooksError) {
    return { code: EXIT.untrustedHooks, message: untrustedMessage(error) };
  }
  if (error instanceof SettingsError) return { code: EXIT.usage, message: error.message };
  if (error instanceof ResumeError) return { code: EXIT.usage, message: error.message };
  // A name a running agent holds (--name), or a bad one.
  if (error instanceof RelayError) return { code: EXIT.usage, message: error.message };
  if (error instanceof CliError) return { code: error.exitCode, message: error.message };
  // Model configuration errors are written for the user (no key, bad spec, missing replay file).
  if (error instanceof ModelConfigError) {
    return { code: error.badInput ? EXIT.usage : EXIT.error, message: error.message };
  }
  return { code: EXIT.error, message: formatUnexpected(error, debug) };
}

function untrustedMessage(error: UntrustedProjectHooksError): string {
  const review = error.review ? `\n${reviewLines(error.review).join("\n")}` : "";
  const list = error.untrusted.length > 0 ? `\n${formatHookList(error.untrusted)}` : "";
  const trust = error.review?.incomplete
    ? ""
    : "\n  acai hooks trust       review and trust this exact set (any change revokes it)";
  return `${error.message} acai applies nothing of a project nobody has trusted (hooks, tools, settings), and will not skip it silently:${list}${review}
To go on, do one of:${trust}
  --trust-project        use it for this run only
  --no-project           run with none of this project's hooks, tools and settings`;
}
