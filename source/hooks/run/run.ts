/**
 * Runs one hook for one event through the ProcessRunner and decodes what it
 * did (exit code, stdout, stderr) into a Decision (hooks.md §3–§5).
 */

import { isAbsolute } from "node:path";
import { quietRunResult } from "../../process/result.js";
import type { ProcessRunner, RunResult } from "../../process/types.js";
import { failed } from "../contract/decision.js";
import { type HookDefinition, type HookEventName, runModeOf } from "../contract/definition.js";
import { buildHookEnvironment } from "../contract/environment.js";
import { payloadText } from "../contract/payload-text.js";
import { changedHookText, type HookFileCheck } from "../discover/fingerprint.js";
import { decodeRunResult } from "./decode.js";
import { directCommand, shellPwd } from "./direct-command.js";
import { runCallbackHook } from "./handlers/callback.js";
import { runHandler } from "./handlers/run-handler.js";
import type { HandlerServices } from "./handlers/services.js";
import type { PersistentHooks } from "./persistent/types.js";
import type { PluginHooks } from "./plugins/types.js";
import type { HookRunRecord } from "./run-record.js";
import { boundDecision, type Spill } from "./spill.js";

export type { HookRunRecord } from "./run-record.js";

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Grace between TERM and KILL when a hook times out. */
const HOOK_KILL_GRACE_MS = 500;

export interface HookRunOptions {
  runner: ProcessRunner;
  /** The parent environment (secrets are scrubbed here). */
  env: Readonly<Record<string, string>>;
  /** Working directory of the hook and value of ACAI_PROJECT_DIR. */
  projectDir: string;
  sessionId: string;
  /** The hook's `CLAUDE_ENV_FILE`, on session_start (see environment.ts). */
  envFile?: string;
  signal?: AbortSignal;
  maxOutputBytes?: number;
  killGraceMs?: number;
  /** The session's persistent hook processes (hooks.md §6.4); needed to run a persistent hook. */
  persistent?: PersistentHooks;
  /** The session's plugins (hooks.md §6.3, hooks/plugins/); needed to run a plugin's handler. */
  plugins?: PluginHooks;
  /** The hook files as the session loaded them (fingerprint.ts): a changed one is not run. */
  fingerprints?: HookFileCheck;
  /** Told (with the words) when a hook is not run because its file changed. */
  onChanged?: (hook: HookDefinition, text: string) => void;
  /** What http, prompt, agent and mcp_tool hooks run through (handlers/services.ts). */
  handlers?: HandlerServices;
  /**
   * Where texts over their caps go instead of being cut (spill.ts): every
   * hook's reason, message, output and prompt, whatever its kind, and its
   * context over `contextCapChars`. Without it they are cut.
   */
  spill?: Spill;
  contextCapChars?: number;
  /** A spawned hook's stdin from its payload (default `payloadText`; `payloadTexts()` shares it within an event). */
  stdinOf?: (payload: unknown, dialect: HookDefinition["dialect"]) => string;
}

export function launchOf(hook: Pick<HookDefinition, "launch">): {
  command: string;
  args: string[];
} {
  return hook.launch.viaShell
    ? { command: "/bin/sh", args: ["-c", hook.launch.command] }
    : { command: hook.launch.command, args: [...hook.launch.args] };
}

/**
 * What a one-shot run starts: a settings line the shell would run as one
 * plain command, as that program, with `PWD` as the shell would export it
 * (direct-command.ts, decision 0075); anything else as `launchOf` says. A
 * hook file whose `#!` line is `/usr/bin/env NAME` then starts as `NAME
 * file`, as the session loaded it (env-shebang.ts, decision 0076).
 */
function spawnedLaunch(
  hook: HookDefinition,
  env: Record<string, string>,
  options: Pick<HookRunOptions, "projectDir" | "fingerprints">,
): { command: string; args: string[]; env: Record<string, string> } {
  const direct = hook.launch.viaShell ? directCommand(hook.launch.command, env) : undefined;
  const launch =
    direct === undefined
      ? { ...launchOf(hook), env }
      : { ...direct, env: { ...env, PWD: shellPwd(env.PWD, options.projectDir) } };
  const name = isAbsolute(launch.command)
    ? options.fingerprints?.envInterpreter?.(launch.command)
    : undefined;
  if (name === undefined) return launch;
  return { ...launch, command: name, args: [launch.command, ...launch.args] };
}

/**
 * Run a single hook against a given payload (also the toolkit's `acai hooks
 * test`), unless its file changed since the session loaded it: then it counts
 * as failed, with its failure policy. Every kind's answer is held to its caps
 * here, once (spill.ts `boundDecision`).
 */
export function runHookOnce(
  hook: HookDefinition,
  event: HookEventName,
  payload: unknown,
  options: HookRunOptions,
): Promise<HookRunRecord> {
  return runByMode(hook, event, payload, options).then((record) => {
    const decision = boundDecision(record.decision, hook.name, options);
    return decision === record.decision ? record : withDecision(record, decision);
  });
}

/**
 * The record with its decision bounded. A copy keeps the record's prototype: a
 * plugin's record makes `stdin` by a getter there (plugins/record.ts), which a
 * spread would drop.
 */
function withDecision(record: HookRunRecord, decision: HookRunRecord["decision"]): HookRunRecord {
  const copy: HookRunRecord = Object.create(Object.getPrototypeOf(record));
  return Object.assign(copy, record, { decision });
}

function runByMode(
  hook: HookDefinition,
  event: HookEventName,
  payload: unknown,
  options: HookRunOptions,
): Promise<HookRunRecord> {
  // One stat per file and run; a file that changed since the session loaded it is not run.
  const changed = options.fingerprints?.changed(hook);
  if (changed !== undefined) {
    const text = changedHookText(hook, changed);
    options.onChanged?.(hook, text);
    return Promise.resolve(notRunRecord(hook, event, text));
  }
  const mode = runModeOf(hook);
  switch (mode) {
    case "spawn":
      return runSpawned(hook, event, payload, options);
    case "persistent": {
      if (options.persistent === undefined) {
        const error = "is a persistent hook, but nothing here runs persistent hooks";
        return Promise.resolve(notRunRecord(hook, event, error));
      }
      const signal = options.signal === undefined ? {} : { signal: options.signal };
      return options.persistent.request({ hook, event, payload, ...signal });
    }
    case "plugin": {
      if (options.plugins === undefined || hook.launch.mode !== "plugin") {
        const error = "is a plugin's handler, but no plugin host runs here";
        return Promise.resolve(notRunRecord(hook, event, error));
      }
      const signal = options.signal === undefined ? {} : { signal: options.signal };
      return options.plugins.call({ hook, launch: hook.launch, event, payload, ...signal });
    }
    case "http":
    case "prompt":
    case "agent":
    case "mcp_tool":
      return runHandler(hook, event, payload, options);
    case "callback":
      if (hook.launch.mode !== "callback")
        return Promise.resolve(notRunRecord(hook, event, "is not a callback"));
      return runCallbackHook(hook, hook.launch, event, payload, {
        maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    default:
      return mode satisfies never;
  }
}

/** One process for this one event: payload on stdin, answer from exit code and stdout. */
async function runSpawned(
  hook: HookDefinition,
  event: HookEventName,
  payload: unknown,
  options: HookRunOptions,
): Promise<HookRunRecord> {
  let stdin: string;
  try {
    stdin = (options.stdinOf ?? payloadText)(payload, hook.dialect);
  } catch (error) {
    // A payload nested too deep for JSON.stringify (the model's own tool input, say): not started.
    return notRunRecord(
      hook,
      event,
      `was not started: its payload cannot be serialized (${(error as Error).message})`,
    );
  }
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const { command, args, env } = spawnedLaunch(
    hook,
    buildHookEnvironment({
      parentEnv: options.env,
      hook,
      projectDir: options.projectDir,
      sessionId: options.sessionId,
      event,
      ...(options.envFile === undefined ? {} : { envFile: options.envFile }),
    }),
    options,
  );
  let result: RunResult;
  try {
    result = await options.runner({
      command,
      args,
      cwd: options.projectDir,
      env,
      stdin,
      timeoutMs: hook.timeoutMs,
      maxOutputBytes,
      onOutputLimit: "kill",
      killGraceMs: options.killGraceMs ?? HOOK_KILL_GRACE_MS,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    // A runner must not throw; if one does, it is this hook's failure, not acai's crash.
    result = quietRunResult({
      spawnError: `cannot run "${command}": ${(error as Error).message}`,
    });
  }
  const outputLimit = result.truncated.stdout || result.truncated.stderr;
  return {
    hookId: hook.id,
    event,
    stdin,
    command,
    args,
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    durationMs: result.durationMs,
    timedOut: result.timedOut,
    aborted: result.aborted,
    outputLimit,
    ...(result.spawnError === undefined ? {} : { spawnError: result.spawnError }),
    decision: decodeRunResult(result, event, { timeoutMs: hook.timeoutMs, maxOutputBytes }),
  };
}

/** The record of a hook that was never started (dropped or cut before its turn came): a failure saying why. */
export function notRunRecord(
  hook: HookDefinition,
  event: HookEventName,
  error: string,
  aborted = false,
): HookRunRecord {
  const { command, args } = launchOf(hook);
  return {
    hookId: hook.id,
    event,
    stdin: "",
    command,
    args,
    exitCode: null,
    signal: null,
    stdout: "",
    stderr: "",
    durationMs: 0,
    timedOut: false,
    aborted,
    outputLimit: false,
    decision: failed(error),
  };
}
