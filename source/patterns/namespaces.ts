/**
 * Built-in pattern namespaces: handlers acai runs in-process for
 * `@namespace:target message` lines, before the `pattern` hooks of that
 * namespace (agent-relay's "built-in patterns run before user patterns").
 * They are registered through one table (`builtinNamespaces`), so `memory`
 * and, from messaging, `relay` are rows of it; a hook handles every other
 * namespace, and, once a built-in is turned off (`memory.enabled: false`),
 * that one too.
 */

/** What a built-in handler is asked. */
export interface PatternCall {
  namespace: string;
  target: string;
  message: string;
  sessionId: string;
  agentName?: string;
}

/** A built-in's answer: text for the agent, and/or a problem to show the user. */
export interface PatternReply {
  /** Reaches the agent with its next model request. */
  context?: string;
  /** Shown to the user as a warning (the agent gets `context`, if any). */
  warning?: string;
}

export interface PatternNamespace {
  /** The namespace it handles (`memory` for `@memory:…`). */
  name: string;
  /** One line for docs and `acai hooks` listings. */
  description: string;
  /** Never rejects on bad input: a problem is a reply. `signal` aborts with the session. */
  handle(call: PatternCall, signal: AbortSignal): Promise<PatternReply>;
}

export type PatternNamespaces = ReadonlyMap<string, PatternNamespace>;

/** The table of built-ins, by name; a later entry of the same name replaces an earlier one. */
export function builtinNamespaces(entries: readonly PatternNamespace[]): PatternNamespaces {
  return new Map(entries.map((entry) => [entry.name, entry]));
}
