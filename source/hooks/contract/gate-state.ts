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
}
