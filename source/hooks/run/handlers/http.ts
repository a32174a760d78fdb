/**
 * An `http` hook's run: the payload POSTed as JSON to its URL; a 2xx
 * response's body is the answer, read as a command hook's stdout is (a JSON
 * object in any dialect; an empty body is "continue"). Another status, a
 * connection failure, a timeout or a body past the output cap is the hook's
 * failure, with its failure policy (hooks.md §4).
 */
import { failed } from "../../contract/decision.js";
import type { HookDefinition, HookEventName, HttpLaunch } from "../../contract/definition.js";
import { HEADER_VARIABLE } from "../../discover/sources/settings-launch.js";
import { decodeRunResult, formatBytes } from "../decode.js";
import type { HookRunRecord } from "../run-record.js";
import type { HttpHookClient, HttpOutcome } from "./http-client.js";
import { handlerRecord } from "./record.js";

export interface HttpRunOptions {
  client: HttpHookClient;
  /** The parent environment: only the hook's `allowedEnvVars` are read from it. */
  env: Readonly<Record<string, string>>;
  maxOutputBytes: number;
  signal?: AbortSignal;
}

export async function runHttpHook(
  hook: HookDefinition,
  launch: HttpLaunch,
  event: HookEventName,
  body: string,
  options: HttpRunOptions,
): Promise<HookRunRecord> {
  const outcome = await options.client.post({
    url: launch.url,
    headers: filledHeaders(launch, options.env),
    body,
    timeoutMs: hook.timeoutMs,
    maxBytes: options.maxOutputBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return handlerRecord(hook, event, {
    sent: body,
    answer: outcome.kind === "answered" ? outcome.body : "",
    durationMs: outcome.durationMs,
    timedOut: outcome.kind === "timed_out",
    aborted: outcome.kind === "aborted",
    outputLimit: outcome.kind === "too_large",
    decision: decisionOf(outcome, event, hook, options.maxOutputBytes),
  });
}

function decisionOf(
  outcome: HttpOutcome,
  event: HookEventName,
  hook: HookDefinition,
  maxOutputBytes: number,
) {
  switch (outcome.kind) {
    case "answered":
      if (outcome.status < 200 || outcome.status > 299) {
        return failed(
          `answered HTTP ${outcome.status} from ${hook.launch.command}${statusHint(outcome.status)}`,
        );
      }
      return decodeRunResult(
        {
          exitCode: 0,
          signal: null,
          stdout: outcome.body,
          stderr: "",
          timedOut: false,
          aborted: false,
          truncated: { stdout: false, stderr: false },
          durationMs: outcome.durationMs,
        },
        event,
        { timeoutMs: hook.timeoutMs, maxOutputBytes },
      );
    case "timed_out":
      return failed(`timed out after ${hook.timeoutMs} ms (POST ${hook.launch.command})`);
    case "aborted":
      return failed("aborted");
    case "too_large":
      return failed(`dropped: its response passed ${formatBytes(maxOutputBytes)}`);
    case "failed":
      return failed(`could not POST to ${hook.launch.command}: ${outcome.error}`);
    default:
      return outcome satisfies never;
  }
}

function statusHint(status: number): string {
  if (status >= 300 && status < 400)
    return " (a redirect is not followed: put the final URL in the hook)";
  return "";
}

/** Header values with `$VAR`/`${VAR}` filled, from `allowedEnvVars` only (any other is empty, as in Claude Code). */
function filledHeaders(
  launch: HttpLaunch,
  env: Readonly<Record<string, string>>,
): Record<string, string> {
  const allowed = new Set(launch.allowedEnvVars);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(launch.headers)) {
    headers[name] = value.replace(HEADER_VARIABLE, (_, braced?: string, bare?: string) => {
      const variable = braced ?? bare ?? "";
      const filled = allowed.has(variable) ? (env[variable] ?? "") : "";
      // A variable's value cannot add a header line.
      return filled.replace(/[\r\n\0]/g, "");
    });
  }
  return headers;
}
