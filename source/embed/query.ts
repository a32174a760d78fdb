/**
 * `query()`: acai's agent loop for programs (docs/sdk.md). The same session as
 * `acai -p` — settings, trust, permissions, sandbox, hooks from files — with
 * the program's own hooks as in-process callbacks in the same chains, and
 * every event yielded as the REPL and `-p` see it. The abort signal reaches
 * the model stream, every tool and every hook.
 */
import os from "node:os";
import path from "node:path";
import type { AskRequest, InterceptedEvent, UserAnswer } from "../hooks/run/activity.js";
import type { PermissionMode } from "../permissions/rules.js";
import { prepareSession } from "../session/prepare.js";
import type { PreparedSession, SessionFlags } from "../session/types.js";
import { definedEnv } from "../shared/defined-env.js";
import { type CallbackHooks, callbackDefinitions } from "./callback-hooks.js";

export interface QueryOptions {
  /** The working folder (default: the process's). */
  cwd?: string;
  /** A model spec as `--model` takes it (default: the settings' `model`, else from the environment). */
  model?: string;
  /** The environment tools, hooks and acai itself see (default: the process's). */
  env?: Record<string, string | undefined>;
  /** As `--permission-mode` (default: the settings', else `default`). */
  permissionMode?: PermissionMode;
  /** As `--allowedTools` / `--disallowedTools`: permission rules (`Bash(npm test:*)`). */
  allowedTools?: string[];
  disallowedTools?: string[];
  /** Model requests per turn, as `--max-steps`. */
  maxSteps?: number;
  /**
   * Which settings apply (default both). `user`'s settings and hooks always
   * apply; leaving out `project` runs none of the project's hooks, tools or
   * settings (`--no-project`). A project is used only once trusted.
   */
  settingSources?: Array<"user" | "project">;
  /** The program's hooks, in Claude Code's settings shape with functions (see CallbackHooks). */
  hooks?: CallbackHooks;
  /** Asked when a rule, mode or hook wants the user's yes; default: no (as `acai -p` without `--yes`). */
  canUseTool?: (request: AskRequest, signal: AbortSignal) => Promise<UserAnswer>;
  /** Ends the session: model stream, tools and hooks stop; session_end hooks run within their budget. */
  signal?: AbortSignal;
}

export interface QueryInput {
  /** One prompt, or several (one turn each, in order). */
  prompt: string | Iterable<string> | AsyncIterable<string>;
  options?: QueryOptions;
}

/** Runs the prompt(s) through acai's loop and yields every event; ends when the session ends. */
export async function* query(input: QueryInput): AsyncGenerator<InterceptedEvent, void, undefined> {
  const options = input.options ?? {};
  const prepared = await prepare(options);
  const events = prepared.run({
    prompts: turns(input.prompt),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  yield* events;
}

function prepare(options: QueryOptions): Promise<PreparedSession> {
  const env = definedEnv(options.env ?? process.env);
  return prepareSession({
    cwd: path.resolve(options.cwd ?? process.cwd()),
    env,
    homeDir: env.HOME ?? os.homedir(),
    flags: flagsOf(options),
    inProcessHooks: callbackDefinitions(options.hooks),
    ...(options.canUseTool ? { askUser: options.canUseTool } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

function flagsOf(options: QueryOptions): SessionFlags {
  const project = options.settingSources?.includes("project") ?? true;
  const permissions = {
    ...(options.permissionMode ? { mode: options.permissionMode } : {}),
    ...(options.allowedTools ? { allow: options.allowedTools } : {}),
    ...(options.disallowedTools ? { deny: options.disallowedTools } : {}),
  };
  return {
    projectHooks: project ? "require-trust" : "off",
    permissions,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
  };
}

async function* turns(prompt: QueryInput["prompt"]): AsyncGenerator<{ prompt: string }> {
  if (typeof prompt === "string") {
    yield { prompt };
    return;
  }
  for await (const text of prompt) yield { prompt: text };
}
