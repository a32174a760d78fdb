/** Memories as the agent (and `acai memory`) reads them: one line each, `#id (date) content`. */
import type { Memory } from "./store.js";

/** Longest memory text shown in a list (characters); `acai memory export` gives it whole. */
const SHOWN_CHARS = 2000;

function formatMemory(memory: Memory): string {
  const text =
    memory.content.length > SHOWN_CHARS
      ? `${memory.content.slice(0, SHOWN_CHARS)}… [${memory.content.length - SHOWN_CHARS} more characters]`
      : memory.content;
  return `- #${memory.id} (${memory.createdAt.slice(0, 10)}${memory.project === null ? ", user-wide" : ""}) ${text.replace(/\s*\n\s*/g, " ")}`;
}

export function formatMemories(memories: readonly Memory[]): string {
  return memories.map(formatMemory).join("\n");
}
