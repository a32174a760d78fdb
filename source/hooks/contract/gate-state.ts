import type { FollowUpCall, RequestChanges } from "../../agent/event-data.js";

/**
 * What earlier hooks of one chain have replaced so far: the next hook's payload
 * and matchers see these values instead of the agent's. Only the values hooks
 * replaced are set (`"toolInput" in state` tells a replaced input from none).
 */
export interface GateState {
  toolInput?: unknown;
  /**
   * The replaced tool input as the tool's schema returned it (defaults
   * filled): what the verdict hands the agent, so it is not checked again.
   * Later hooks see `toolInput`, as the hook wrote it.
   */
  checkedToolInput?: unknown;
  prompt?: string;
  output?: string;
  /** before_model: this request's changes, merged hook by hook (model-control.ts). */
  request?: RequestChanges;
  /** before_model: an answer in place of the model; after_model: the response's new text. */
  response?: { text: string };
  /** after_model: ids of the tool calls dropped. */
  dropToolCalls?: string[];
  /** after_tool: the follow-up call the first hook that asked for one named. */
  followUp?: FollowUpCall;
}
