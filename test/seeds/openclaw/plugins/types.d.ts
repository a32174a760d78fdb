/**
 * OpenClaw's plugin hook types as its documentation gives them (src/plugins/hooks.ts,
 * simplified), for the examples beside this file. A `.d.ts` file is not a plugin.
 */
/** OpenClaw's hook names; its code spells them with `_` (`message_sending`), acai takes either. */
export type PluginHookName = KebabHookName | SnakeCase<KebabHookName>;

type SnakeCase<S extends string> = S extends `${infer A}-${infer B}` ? `${A}_${SnakeCase<B>}` : S;

type KebabHookName =
  | "gateway-start"
  | "gateway-stop"
  | "session-start"
  | "session-end"
  | "before-agent-start"
  | "message-received"
  | "message-sending"
  | "message-sent"
  | "before-tool-call"
  | "after-tool-call"
  | "before-compaction"
  | "after-compaction"
  | "tool-result-persist";

export interface AgentConfig {
  model?: string;
  permissionMode?: string;
  agentName?: string;
  workspaceDir?: string;
}

export interface PluginHookAgentContext {
  runId: string; // Agent run ID
  config: AgentConfig; // Agent configuration
  workspaceDir: string; // Workspace directory
  agentDir: string; // Agent directory
}

export interface PluginHookMessageContext {
  sessionKey: string; // Session key
  channel: string; // Source channel
  senderId: string; // Sender identifier
  direction: "received" | "sending" | "sent"; // Message direction
  content?: string;
  to?: string; // sending: the agent the message goes to
}

export interface PluginHookToolContext {
  runId: string; // Agent run ID
  toolName: string; // Tool being called
  args?: Record<string, unknown>; // before: includes args
  result?: unknown; // after: includes result
  error?: string;
}

export interface PluginHookSessionContext {
  sessionKey: string; // Session key
  channel: string; // Channel
}

/** Every hook's context: acai hands each handler all four at once. */
export type PluginHookContext = PluginHookAgentContext &
  PluginHookMessageContext &
  PluginHookToolContext &
  PluginHookSessionContext &
  Record<string, unknown>;

export type PluginHookHandler<_K extends PluginHookName> = (
  ctx: PluginHookContext,
) => unknown | Promise<unknown>;

export interface PluginHookRegistration<K extends PluginHookName> {
  event: K; // Hook event name
  handler: PluginHookHandler<K>; // Handler function
  priority?: number; // Execution priority (lower = earlier)
}

export interface PluginApi {
  registerHook<K extends PluginHookName>(registration: PluginHookRegistration<K>): void;
}
