/**
 * The memory of one session, from the settings (`memory.enabled`,
 * `memory.scope`, `memory.injectOnStart`): the built-in `@memory:` namespace
 * and the memories given to the agent at session start. The store is opened
 * on first use only, and not at all at start when the file does not exist yet
 * (a session that never uses memory pays nothing).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { PatternNamespace } from "../patterns/namespaces.js";
import { formatMemories } from "./format.js";
import { type MemoryScope, memoryNamespace, viewOf } from "./namespace.js";
import { type Memory, MemoryStore } from "./store.js";

const DEFAULT_INJECT_ON_START = 5;

export interface MemorySettings {
  enabled?: boolean | undefined;
  scope?: MemoryScope | undefined;
  injectOnStart?: number | undefined;
}

export interface SessionMemory {
  /** The `@memory:` built-in; none when memory is off. */
  namespace?: PatternNamespace;
  /** The start memories, as context (none when there are none). */
  startContext?: () => Promise<readonly string[]>;
  /** agent-relay's `ctx.memory` for relay-shaped hooks (none when memory is off). */
  forHooks?: HookMemory;
  close(): void;
}

/** The memory as agent-relay's hooks use it: plain data in and out. */
export interface HookMemory {
  search(query: string): Promise<Memory[]>;
  list(): Promise<Memory[]>;
  add(content: string): Promise<Memory>;
  forget(id: number): Promise<boolean>;
}

const HOOK_RESULTS = 10;

/** `<ACAI_HOME>/memory.db`: every project's memories, one file. */
export function memoryFile(acaiHome: string): string {
  return path.join(acaiHome, "memory.db");
}

export function sessionMemory(options: {
  acaiHome: string;
  projectDir: string;
  settings: MemorySettings;
}): SessionMemory {
  if (options.settings.enabled === false) return { close() {} };
  const file = memoryFile(options.acaiHome);
  const scope = options.settings.scope ?? "project";
  let opened: Promise<MemoryStore> | undefined;
  const openStore = (): Promise<MemoryStore> => {
    opened ??= MemoryStore.open(file);
    return opened;
  };
  const injectOnStart = options.settings.injectOnStart ?? DEFAULT_INJECT_ON_START;
  const view = viewOf(scope, options.projectDir);
  const forHooks: HookMemory = {
    search: async (query) => (await openStore()).search(query, view, HOOK_RESULTS),
    list: async () => (await openStore()).list(view, HOOK_RESULTS * 2),
    add: async (content) =>
      (await openStore()).save({
        content,
        project: scope === "user" ? null : options.projectDir,
      }),
    forget: async (id) => (await openStore()).forget(id, view),
  };
  return {
    forHooks,
    namespace: memoryNamespace({ openStore, projectDir: options.projectDir, scope }),
    ...(injectOnStart > 0
      ? {
          startContext: async () => {
            if (opened === undefined && !existsSync(file)) return [];
            const store = await openStore();
            const memories = startMemories(store, scope, options.projectDir, injectOnStart);
            return memories.length === 0 ? [] : [startText(memories)];
          },
        }
      : {}),
    close() {
      void opened?.then((store) => store.close()).catch(() => {});
    },
  };
}

/**
 * The `count` memories most relevant to this project (agent-relay's
 * onSessionStart: the project's own and the user's preferences), topped up
 * with the most recent ones.
 */
function startMemories(
  store: MemoryStore,
  scope: MemoryScope,
  projectDir: string,
  count: number,
): Memory[] {
  const view = viewOf(scope, projectDir);
  const query = `${path.basename(projectDir)} project user preferences prefers`;
  const chosen = new Map<number, Memory>();
  for (const memory of store.search(query, view, count)) chosen.set(memory.id, memory);
  for (const memory of store.list(view, count)) {
    if (chosen.size >= count) break;
    chosen.set(memory.id, memory);
  }
  return [...chosen.values()].slice(0, count);
}

function startText(memories: readonly Memory[]): string {
  return [
    "[memory] From earlier sessions (save with a line `@memory:save <what you learned>`; also `@memory:search <query>`, `@memory:forget <id>`, `@memory:list`):",
    formatMemories(memories),
  ].join("\n");
}
