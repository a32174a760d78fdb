/**
 * `acai memory list | search | forget | export` (docs/memory.md): the user's
 * view of the memories the agent saves with `@memory:save`. By default the
 * memories of this project (the project root acai would use here) and the
 * user-wide ones; `--all` every project's. Memory text was written by a model:
 * it is printed inert.
 */
import type { Command } from "commander";
import type { Memory, MemoryStore, MemoryView } from "../../memory/store.js";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { CliError, UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import { runToolkitCommand } from "./run-command.js";

interface ViewFlags {
  all: boolean;
  json: boolean;
  limit?: string;
}

async function withStore<T>(
  ctx: CommandContext,
  all: boolean,
  work: (store: MemoryStore, view: MemoryView) => T,
): Promise<T> {
  const [{ resolveAcaiPaths }, { findProjectRoot }, { memoryFile }, { MemoryStore, MemoryError }] =
    await Promise.all([
      import("../../config/paths.js"),
      import("../../project/root.js"),
      import("../../memory/session.js"),
      import("../../memory/store.js"),
    ]);
  const { io } = ctx;
  const paths = resolveAcaiPaths({ env: io.env, homeDir: io.homeDir, cwd: io.cwd });
  const project = findProjectRoot({ cwd: io.cwd, acaiHome: paths.home }).dir;
  let store: MemoryStore;
  try {
    store = await MemoryStore.open(memoryFile(paths.home));
  } catch (error) {
    throw error instanceof MemoryError ? new CliError(error.message, EXIT.error) : error;
  }
  try {
    return work(store, all ? { kind: "all" } : { kind: "project", project });
  } finally {
    store.close();
  }
}

function limitOf(flags: ViewFlags, fallback: number): number {
  if (flags.limit === undefined) return fallback;
  const limit = Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50)
    throw new UsageError(
      `--limit must be a whole number from 1 to 50 (got ${inertText(flags.limit)})`,
    );
  return limit;
}

function printMemories(
  ctx: CommandContext,
  memories: readonly Memory[],
  flags: ViewFlags,
  empty: string,
): void {
  if (flags.json) {
    ctx.io.stdout.write(`${jsonForTerminal(memories, 2)}\n`);
    return;
  }
  if (memories.length === 0) {
    ctx.io.stdout.write(`${empty}\n`);
    return;
  }
  const lines = memories.map((m) => {
    const where = m.project === null ? "user-wide" : m.project;
    return `#${m.id}  ${m.createdAt.slice(0, 16).replace("T", " ")}  ${inertText(where)}\n    ${inertText(m.content.replace(/\s*\n\s*/g, " "))}`;
  });
  ctx.io.stdout.write(`${lines.join("\n")}\n`);
}

const ALL = "every project's memories, not only this project's and the user-wide ones";

/** `acai memory …` (lazy: registered only when the first operand is `memory`). */
export function registerMemoryCommand(program: Command, ctx: CommandContext): Command {
  const memory = program
    .command("memory")
    .description("the memories agents saved with @memory:save (docs/memory.md)")
    .configureHelp({ showGlobalOptions: false });
  memory
    .command("list")
    .description("the most recent memories of this project (and the user-wide ones)")
    .option("--all", ALL, false)
    .option("--limit <n>", "how many (1-50, default 20)")
    .option("--json", "print JSON for scripts", false)
    .action((flags: ViewFlags) =>
      runToolkitCommand(ctx, async () => {
        const found = await withStore(ctx, flags.all, (store, view) =>
          store.list(view, limitOf(flags, 20)),
        );
        printMemories(ctx, found, flags, "No memories yet.");
        return EXIT.ok;
      }),
    );
  memory
    .command("search")
    .description("full-text search, best match first")
    .argument("<query...>", "words to look for (FTS syntax is not interpreted)")
    .option("--all", ALL, false)
    .option("--limit <n>", "how many (1-50, default 10)")
    .option("--json", "print JSON for scripts", false)
    .action((query: string[], flags: ViewFlags) =>
      runToolkitCommand(ctx, async () => {
        const found = await withStore(ctx, flags.all, (store, view) =>
          store.search(query.join(" "), view, limitOf(flags, 10)),
        );
        printMemories(ctx, found, flags, "No memory matches.");
        return EXIT.ok;
      }),
    );
  memory
    .command("forget")
    .description("delete one memory by its id (#12 or 12)")
    .argument("<id>", "the memory's id")
    .option("--all", "also a memory of another project", false)
    .action((id: string, flags: { all: boolean }) =>
      runToolkitCommand(ctx, async () => {
        const n = Number(id.replace(/^#/, ""));
        if (!Number.isSafeInteger(n) || n <= 0)
          throw new UsageError(`a memory id is a whole number such as 12 (got ${inertText(id)})`);
        const gone = await withStore(ctx, flags.all, (store, view) => store.forget(n, view));
        if (!gone) {
          throw new CliError(
            `there is no memory #${n} ${flags.all ? "" : "in this project (add --all for another project's)"}`.trim(),
            EXIT.error,
          );
        }
        ctx.io.stdout.write(`Forgot memory #${n}.\n`);
        return EXIT.ok;
      }),
    );
  memory
    .command("export")
    .description("every memory as JSON Lines, oldest first (for a backup or another tool)")
    .option("--all", ALL, false)
    .action((flags: { all: boolean }) =>
      runToolkitCommand(ctx, async () => {
        await withStore(ctx, flags.all, (store, view) => {
          for (const m of store.all(view)) ctx.io.stdout.write(`${jsonForTerminal(m)}\n`);
        });
        return EXIT.ok;
      }),
    );
  return memory;
}
