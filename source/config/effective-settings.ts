/**
 * The settings a session runs with, given whether the project is trusted.
 *
 * Nothing a project's settings say applies before trust (its `baseUrl` would
 * receive the user's API key; its `model` could be a replay file that runs
 * commands). After trust, a project still never weakens the user's own hooks:
 * its `hookDefaults.timeoutMs` is the default of the project's hooks only, and
 * the limits that keep user hooks effective (context cap, stop-block limit,
 * session-end budget) can only be raised by a project, never lowered.
 */

import { defined } from "../shared/defined.js";
import type { HookDefaults, MergedSettings } from "./settings.js";

export interface HookLimitDefaults {
  contextCapChars: number;
  maxStopBlocks: number;
  sessionEndBudgetMs: number;
}

export interface EffectiveSettings {
  model?: string;
  baseUrl?: string;
  maxSteps?: number;
  pricing?: MergedSettings["pricing"];
  systemPrompt?: string;
  appendSystemPrompt?: string;
  contextWindow?: number;
  /** Default timeout of user hooks (and of project hooks when the project sets none). */
  userHookTimeoutMs?: number;
  /** Default timeout of project hooks. */
  projectHookTimeoutMs?: number;
  contextCapChars: number;
  maxStopBlocks: number;
  sessionEndBudgetMs: number;
  /** agent-relay capability grants: the user's file only (a project cannot grant itself one). */
  capabilities: NonNullable<MergedSettings["capabilities"]>;
  /** The user's memory settings, the project's over them once trusted. */
  memory: NonNullable<MergedSettings["memory"]>;
  idleMs?: number;
}

export function effectiveSettings(
  loaded: { user: MergedSettings; project: MergedSettings },
  includeProject: boolean,
  defaults: HookLimitDefaults,
): EffectiveSettings {
  const user = loaded.user;
  const project: MergedSettings = includeProject ? loaded.project : {};
  const userHooks: HookDefaults = user.hookDefaults ?? {};
  const projectHooks: HookDefaults = project.hookDefaults ?? {};
  const raiseOnly = (key: keyof HookLimitDefaults): number =>
    Math.max(userHooks[key] ?? defaults[key], projectHooks[key] ?? 0);
  const pricing =
    user.pricing || project.pricing ? { ...user.pricing, ...project.pricing } : undefined;
  return {
    ...defined("model", project.model ?? user.model),
    ...defined("baseUrl", project.baseUrl ?? user.baseUrl),
    ...defined("maxSteps", project.maxSteps ?? user.maxSteps),
    ...defined("pricing", pricing),
    ...defined("systemPrompt", project.systemPrompt ?? user.systemPrompt),
    ...defined("appendSystemPrompt", project.appendSystemPrompt ?? user.appendSystemPrompt),
    ...defined("contextWindow", project.contextWindow ?? user.contextWindow),
    ...hookTimeouts(loaded, includeProject),
    contextCapChars: raiseOnly("contextCapChars"),
    maxStopBlocks: raiseOnly("maxStopBlocks"),
    sessionEndBudgetMs: raiseOnly("sessionEndBudgetMs"),
    capabilities: { ...user.capabilities },
    memory: { ...user.memory, ...project.memory },
    ...defined("idleMs", project.idleMs ?? user.idleMs),
  };
}

/**
 * The default timeouts of hooks that set none: the user's for user hooks;
 * for project hooks the project's own, else the user's (a project never sets
 * the user's hooks' timeout).
 */
export function hookTimeouts(
  loaded: { user: MergedSettings; project: MergedSettings },
  includeProject: boolean,
): Pick<EffectiveSettings, "userHookTimeoutMs" | "projectHookTimeoutMs"> {
  const userTimeout = loaded.user.hookDefaults?.timeoutMs;
  const projectTimeout =
    (includeProject ? loaded.project.hookDefaults?.timeoutMs : undefined) ?? userTimeout;
  return {
    ...defined("userHookTimeoutMs", userTimeout),
    ...defined("projectHookTimeoutMs", projectTimeout),
  };
}
