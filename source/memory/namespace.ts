/**
 * The built-in `@memory:` namespace (docs/memory.md): `save <content>`,
 * `search <query>`, `forget <id>`, `list`. Replies are context for the agent;
 * the store is opened on first use (a session that saves nothing opens
 * nothing). Problems (an unknown action, a memory too long, an unreadable
 * file) are replies the agent can act on, never a crash.
 */
import type { PatternCall, PatternNamespace, PatternReply } from "../patterns/namespaces.js";
import { formatMemories } from "./format.js";
import { MemoryError, type MemoryStore, type MemoryView } from "./store.js";

export type MemoryScope = "project" | "user";

export interface MemoryNamespaceOptions {
  /** Opens the store (once; the promise is reused). */
  openStore: () => Promise<MemoryStore>;
  /** The project root: the project scope's key. */
  projectDir: string;
  scope: MemoryScope;
}

const SEARCH_RESULTS = 10;
const LIST_RESULTS = 20;

/** The view of a scope: this project's memories and the user-wide ones, or every memory. */
export function viewOf(scope: MemoryScope, projectDir: string): MemoryView {
  return scope === "user" ? { kind: "all" } : { kind: "project", project: projectDir };
}

export function memoryNamespace(options: MemoryNamespaceOptions): PatternNamespace {
  const view = viewOf(options.scope, options.projectDir);
  return {
    name: "memory",
    description: "acai's built-in memory: save, search, forget, list",
    async handle(call) {
      let store: MemoryStore;
      try {
        store = await options.openStore();
      } catch (error) {
        const why = error instanceof MemoryError ? error.message : String(error);
        return {
          context: `[memory] unavailable: ${why}`,
          warning: `memory is unavailable: ${why}`,
        };
      }
      try {
        return run(store, call, view, options);
      } catch (error) {
        if (error instanceof MemoryError) return { context: `[memory] ${error.message}` };
        const why = (error as Error).message;
        return { context: `[memory] ${call.target} failed: ${why}`, warning: `memory: ${why}` };
      }
    },
  };
}

function run(
  store: MemoryStore,
  call: PatternCall,
  view: MemoryView,
  options: MemoryNamespaceOptions,
): PatternReply {
  const action = call.target.toLowerCase();
  switch (action) {
    case "save": {
      const saved = store.save({
        content: call.message,
        project: options.scope === "user" ? null : options.projectDir,
        sessionId: call.sessionId,
        ...(call.agentName === undefined ? {} : { agentName: call.agentName }),
      });
      return { context: `[memory] saved as #${saved.id}` };
    }
    case "search": {
      const found = store.search(call.message, view, SEARCH_RESULTS);
      const query = JSON.stringify(call.message.slice(0, 200));
      return {
        context:
          found.length === 0
            ? `[memory] no memory matches ${query}`
            : `[memory] ${found.length} memor${found.length === 1 ? "y matches" : "ies match"} ${query}:\n${formatMemories(found)}`,
      };
    }
    case "forget": {
      const id = Number(call.message.replace(/^#/, "").trim());
      if (!Number.isSafeInteger(id) || id <= 0)
        return { context: "[memory] forget needs a memory id, e.g. @memory:forget 12" };
      return {
        context: store.forget(id, view)
          ? `[memory] #${id} forgotten`
          : `[memory] there is no memory #${id} here`,
      };
    }
    case "list": {
      const recent = store.list(view, LIST_RESULTS);
      return {
        context:
          recent.length === 0
            ? "[memory] no memories yet"
            : `[memory] the ${recent.length} most recent:\n${formatMemories(recent)}`,
      };
    }
    default:
      return {
        context: `[memory] unknown action ${JSON.stringify(call.target.slice(0, 40))}: use @memory:save <content>, @memory:search <query>, @memory:forget <id> or @memory:list`,
      };
  }
}
