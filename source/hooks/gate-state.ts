/**
 * What earlier hooks of one chain have replaced so far: the next hook's payload
 * and matchers see these values instead of the agent's. Only the values hooks
 * replaced are set (`"toolInput" in state` tells a replaced input from none).
 */
export interface GateState {
  toolInput?: unknown;
  prompt?: string;
  output?: string;
}
