import type { PreparedSession } from "../../session/types.js";
import { COMMAND_HELP, type Command, KEY_HELP } from "../commands.js";
import { buildHooksSnapshot } from "../hooks-snapshot.js";
import { subagentDetail } from "../subagents.js";
import type { UiStore } from "./store.js";

/** A new session in place of the running one (`/clear`, `/model <spec>`). */
export interface Restart {
  clear: boolean;
  model?: string;
  /** `/resume`: the id of the session to continue. */
  resume?: string;
}

export interface SlashCommandContext {
  store: UiStore;
  /** The running session, if any. */
  session: () => PreparedSession | undefined;
  /** Whether the project has hooks, tools or settings of its own (for `/hooks`). */
  projectHasHooks: () => boolean;
  newSession: (restart: Restart) => void;
  /** `/compact`: queues a compaction for the running session. */
  compact: (instructions: string) => void;
  requestExit: () => void;
}

/** Runs a parsed `/command`: what it shows goes to the transcript as items. */
export function runSlashCommand(command: Command, ctx: SlashCommandContext): void {
  const { store } = ctx;
  switch (command.name) {
    case "help":
      store.item({
        kind: "notice",
        title: "Commands",
        lines: [],
        table: [...COMMAND_HELP, ...KEY_HELP],
      });
      return;
    case "hooks":
      showHooks(ctx);
      return;
    case "clear":
      ctx.newSession({ clear: true });
      return;
    case "model":
      switchModel(command.spec, ctx);
      return;
    case "expand":
      expandTool(command.seq, store);
      return;
    case "compact":
      if (!ctx.session()) {
        store.item({ kind: "error", text: "No session is running." });
        return;
      }
      ctx.compact(command.instructions ?? "");
      return;
    case "resume":
      // Loaded when asked for: reading transcripts is not for the first frame.
      void import("./resume-command.js")
        .then(({ resumeSession }) => resumeSession(command.target, ctx))
        .catch((error: unknown) =>
          store.item({ kind: "error", text: `/resume failed: ${String(error)}` }),
        );
      return;
    case "exit":
      ctx.requestExit();
      return;
    case "unknown":
      store.item({ kind: "error", text: `Unknown command ${command.text}. /help lists commands.` });
      return;
    default:
      command satisfies never;
  }
}

function showHooks(ctx: SlashCommandContext): void {
  const session = ctx.session();
  if (!session) {
    ctx.store.item({ kind: "error", text: "No session is running." });
    return;
  }
  const snapshot = buildHooksSnapshot(
    session.hooks,
    ctx.store.getState().view.hookLast,
    ctx.projectHasHooks(),
  );
  ctx.store.item({ kind: "hooks", snapshot });
}

/** `/model` alone says which model runs; `/model <spec>` starts a new session with another. */
function switchModel(spec: string | undefined, ctx: SlashCommandContext): void {
  const { store } = ctx;
  if (!spec) {
    store.item({
      kind: "notice",
      lines: [
        `model: ${store.getState().view.model || "(unknown)"}`,
        "`/model <spec>` starts a new session with another model.",
      ],
    });
    return;
  }
  store.item({ kind: "banner", tone: "info", text: `Switching to ${spec}…` });
  ctx.newSession({ clear: false, model: spec });
}

/** `/expand [n]`: the full output of tool block n, or of the latest one; a subagent's every line. */
function expandTool(seq: number | undefined, store: UiStore): void {
  const items = store.getState().view.items;
  const subagent = items.find((item) => item.kind === "subagent" && item.view.seq === seq);
  if (seq !== undefined && subagent?.kind === "subagent") {
    const { view } = subagent;
    store.item({
      kind: "detail",
      title: `[${seq}] subagent ${view.agentType} · ${view.description}`,
      text: subagentDetail(view),
    });
    return;
  }
  const tools = items.flatMap((item) => (item.kind === "tool" ? [item.tool] : []));
  const tool = seq === undefined ? tools[tools.length - 1] : tools.find((t) => t.seq === seq);
  if (!tool) {
    store.item({ kind: "error", text: `No tool block ${seq ?? ""} to expand.`.replace("  ", " ") });
    return;
  }
  store.item({
    kind: "detail",
    title: `[${tool.seq}] ${tool.toolName} output`,
    text: tool.output ?? "(no output)",
  });
}
