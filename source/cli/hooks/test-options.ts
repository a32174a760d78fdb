/**
 * What `acai hooks test`'s options say: `--input` (inline JSON or `@file`, an
 * object merged over the sample payload) and the event to send.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { HookDefinition, HookEventName } from "../../hooks/contract/definition.js";
import { inertText } from "../../terminal/inert-text.js";
import { UsageError } from "../errors.js";

export interface TestOptions {
  event?: HookEventName;
  input?: string;
  tool?: string;
  json: boolean;
}

/** What `--input` says: inline JSON or `@file`; always an object merged over the sample payload. */
export async function readInputOption(
  value: string | undefined,
  cwd: string,
): Promise<Record<string, unknown>> {
  if (value === undefined) return {};
  let text = value;
  let where = "--input";
  if (value.startsWith("@")) {
    const file = path.resolve(cwd, value.slice(1));
    where = `--input ${value}`;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new UsageError(
        `${where}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${where} is not valid JSON (${(error as Error).message}). Give an object such as '{"tool_input":{"command":"ls"}}' or @file.json.`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(
      `${where} must be a JSON object (fields of the payload to set), e.g. '{"prompt":"hi"}'.`,
    );
  }
  return parsed as Record<string, unknown>;
}

/** `--event`, or the hook's only event; a hook with several needs one named. */
export function chooseEvent(hook: HookDefinition, given: HookEventName | undefined): HookEventName {
  if (given !== undefined) return given;
  const [only, ...others] = [...new Set(hook.events)];
  if (only !== undefined && others.length === 0) return only;
  throw new UsageError(
    `hook ${inertText(hook.name)} listens to ${inertText(hook.events.join(", "))}: name the event to send with --event (e.g. --event ${hook.events[0] ?? "before_tool"}).`,
  );
}
