/**
 * `acai hooks replay <transcript|session-id>`: feeds the agent events recorded
 * in a session transcript through the real hook interceptor with the CURRENT
 * hook set — no model, no tools — and compares the verdict each gate gets now
 * with the verdict the agent applied then (the transcript records those).
 *
 * Hooks run for real (they may have side effects, and see today's files);
 * `ask` is denied as in a headless run unless --yes.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import type { AgentEvent, Verdict } from "../../agent/events.js";
import type { AuditEntry } from "../../hooks/audit.js";
import type { HookDefinition } from "../../hooks/definition.js";
import type { ProcessRunner } from "../../process/types.js";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { CliError, UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import type { Inventory } from "./hooks-inventory.js";
import { runToolkitCommand } from "./run-command.js";

interface RecordedEvent {
  /** 1-based position among the transcript's events. */
  index: number;
  line: number;
  event: AgentEvent;
  applied?: Verdict;
}

export interface ReplayedEvent {
  index: number;
  type: AgentEvent["type"];
  hook_event: string;
  summary: string;
  runs: AuditEntry[];
  warnings: string[];
  /** What the agent applied when the session ran (the transcript's verdict; continue when none). */
  applied: Verdict;
  /** What the current hooks decide. */
  now: Verdict;
  /** Fields of the verdict that differ (empty when the same). */
  differs: string[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const CONVERSATION_LINE_TYPES = new Set(["user", "assistant", "compact_boundary"]);

/** Parses a JSONL transcript; a line that is not an event or a verdict is reported with its number. */
export function parseTranscript(text: string, file: string): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, i) => {
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      // A torn last line (the session was killed mid-write) is expected; anything else is not.
      if (i >= lines.length - 2) return;
      throw new UsageError(
        `${file}:${i + 1} is not JSON; is this an acai transcript (<ACAI_HOME>/transcripts/*.jsonl)?`,
      );
    }
    if (isObject(value) && isObject(value.event) && typeof value.event.type === "string") {
      events.push({
        index: events.length + 1,
        line: i + 1,
        event: value.event as unknown as AgentEvent,
      });
    } else if (isObject(value) && isObject(value.verdict) && typeof value.for === "string") {
      // The verdict belongs to the latest event of its type: events raised while
      // the gate waited (a notification when the user is asked) may sit between.
      const gate = events.findLast((e) => e.event.type === value.for);
      if (gate && gate.applied === undefined) gate.applied = value.verdict as unknown as Verdict;
    } else if (isObject(value) && CONVERSATION_LINE_TYPES.has(String(value.type))) {
      // The conversation (Claude Code's shape) and compaction boundaries: not events to replay.
    } else {
      throw new UsageError(
        `${file}:${i + 1} is neither an agent event nor a verdict; is this an acai transcript?`,
      );
    }
  });
  if (events.length === 0) throw new UsageError(`${file} holds no recorded events.`);
  return events;
}

async function resolveTranscript(
  target: string,
  cwd: string,
  transcriptsDir: string,
): Promise<string> {
  const direct = path.resolve(cwd, target);
  if (
    await readFile(direct).then(
      () => true,
      () => false,
    )
  )
    return direct;
  // A session id, or the start of one (`acai hooks log` prints 8 characters).
  const names = await readdir(transcriptsDir).catch(() => [] as string[]);
  const found = transcriptOfSession(names, target, transcriptsDir);
  if (found) return path.join(transcriptsDir, found);
  throw new UsageError(
    `no transcript ${inertText(target)}: give a transcript file or a session id, or its start as \`acai hooks log\` prints it (transcripts are in ${transcriptsDir}).`,
  );
}

/** `<YYYY-MM-DD>-<session id>.jsonl` → the session id. */
const TRANSCRIPT_NAME = /^\d{4}-\d{2}-\d{2}-(.+)\.jsonl$/;

/**
 * The transcript of the session whose id is `target` or starts with it (the
 * newest file when a session has several); a prefix that fits several
 * sessions is an error listing them.
 */
export function transcriptOfSession(
  names: readonly string[],
  target: string,
  transcriptsDir: string,
): string | undefined {
  if (target === "") return undefined;
  const bySession = new Map<string, string[]>();
  for (const name of names) {
    const id = TRANSCRIPT_NAME.exec(name)?.[1];
    if (id === undefined || !id.startsWith(target)) continue;
    bySession.set(id, [...(bySession.get(id) ?? []), name]);
  }
  const exact = bySession.get(target);
  const files = exact ?? (bySession.size === 1 ? [...bySession.values()][0] : undefined);
  if (files !== undefined) return [...files].sort().at(-1);
  if (bySession.size === 0) return undefined;
  const candidates = [...bySession.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([id, ids]) =>
        `  ${inertText(id)}  (${inertText(path.join(transcriptsDir, [...ids].sort().at(-1) ?? ""))})`,
    );
  throw new UsageError(
    `session id ${inertText(target)} is ambiguous: ${bySession.size} sessions start with it:\n${candidates.join("\n")}\nGive more of the id.`,
  );
}

function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

export function summarize(event: AgentEvent): string {
  switch (event.type) {
    case "session_start":
      return `${event.source}, model ${event.model}`;
    case "user_prompt":
      return JSON.stringify(clip(event.prompt, 80));
    case "model_request":
      return `step ${event.step}`;
    case "model_response":
      return `step ${event.step}, ${event.toolCalls.length} tool call(s), ${event.finishReason}`;
    case "tool_call_start":
    case "tool_call_end":
    case "permission_request":
      return `${event.toolName} ${clip(JSON.stringify(event.input), 90)}`;
    case "tool_call_error":
      return `${event.toolName} ${clip(event.error, 80)}`;
    case "stop_request":
      return `stop_hook_active ${event.stopHookActive}`;
    case "turn_end":
      return event.stopReason;
    case "notification":
      return clip(event.message, 80);
    case "session_end":
      return event.reason;
    default:
      return "";
  }
}

const CONTINUE: Verdict = { action: "continue" };

/** Which parts of two verdicts differ: action, reason, input, prompt, output, context, retry delay. */
export function verdictDiff(applied: Verdict, now: Verdict): string[] {
  const pick = (v: Verdict) => ({
    action: v.action,
    reason: "reason" in v ? v.reason : undefined,
    input: v.action === "continue" || v.action === "allow" ? v.input : undefined,
    prompt: v.action === "continue" ? v.prompt : undefined,
    output: v.action === "continue" ? v.output : undefined,
    context: "context" in v && v.context && v.context.length > 0 ? v.context : undefined,
    after_ms: v.action === "retry" ? v.afterMs : undefined,
  });
  const a = pick(applied);
  const b = pick(now);
  return (Object.keys(a) as (keyof typeof a)[]).filter(
    (key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]),
  );
}

function verdictText(v: Verdict): string {
  switch (v.action) {
    case "continue": {
      const parts = ["continue"];
      if (v.input !== undefined) parts.push(`input ${clip(JSON.stringify(v.input), 80)}`);
      if (v.prompt !== undefined) parts.push(`prompt ${JSON.stringify(clip(v.prompt, 60))}`);
      if (v.output !== undefined) parts.push(`output ${JSON.stringify(clip(v.output, 60))}`);
      if (v.permission !== undefined) parts.push(`permission ${v.permission.behavior}`);
      if (v.context?.length) parts.push(`+${v.context.length} context`);
      return parts.join(", ");
    }
    case "allow":
      return v.input === undefined ? "allow" : `allow, input ${clip(JSON.stringify(v.input), 80)}`;
    case "block":
      return `block ${JSON.stringify(clip(v.reason, 100))}`;
    case "retry":
      return `retry after ${v.afterMs} ms`;
    case "stop":
      return `stop ${JSON.stringify(clip(v.reason, 100))}`;
    default:
      return v satisfies never;
  }
}

function runText(run: AuditEntry): string {
  const effect = run.effect ? ` → ${run.effect}` : "";
  const detail = run.error ?? run.reason;
  return `${run.hook} (${run.scope} ${run.source}${run.async ? ", async" : ""}): ${run.decision}${effect}${detail ? ` — ${clip(detail, 120)}` : ""} [${run.duration_ms} ms]`;
}

/** What the current hooks did with each recorded event (by its index), and what they decided. */
interface Heard {
  runs: Map<number, AuditEntry[]>;
  warnings: Map<number, string[]>;
  now: Map<number, Verdict | undefined>;
}

/** Feeds the recorded events through the real interceptor with `hookSet`; Ctrl-C stops it. */
async function replayEvents(args: {
  inventory: Inventory;
  hookSet: HookDefinition[];
  recorded: RecordedEvent[];
  io: CommandContext["io"];
  runner: ProcessRunner;
  assumeYes: boolean;
}): Promise<Heard> {
  const { inventory, recorded, io } = args;
  const [{ createHookInterceptor }, { builtinTools }] = await Promise.all([
    import("../../hooks/interceptor.js"),
    import("../../tools/registry.js"),
  ]);
  const tools = new Map(builtinTools().map((tool) => [tool.name, tool]));
  const heard: Heard = { runs: new Map(), warnings: new Map(), now: new Map() };
  let current = 0;
  const controller = new AbortController();
  const offInt = io.onSignal("SIGINT", () => controller.abort());
  const offTerm = io.onSignal("SIGTERM", () => controller.abort());
  async function* replayRun(): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
    for (const item of recorded) {
      if (controller.signal.aborted) return;
      current = item.index;
      heard.now.set(item.index, yield item.event);
    }
  }
  const intercept = createHookInterceptor({
    hooks: args.hookSet,
    runner: args.runner,
    env: io.env,
    projectDir: inventory.projectDir,
    acaiHome: inventory.paths.home,
    signal: controller.signal,
    assumeYes: args.assumeYes,
    // Plugin hooks run in the workers the inventory loaded them in.
    ...(inventory.plugins === undefined ? {} : { plugins: inventory.plugins }),
    audit: {
      write(entry) {
        append(heard.runs, current, entry);
      },
    },
    validateToolInput: (toolName, input) => {
      const tool = tools.get(toolName);
      return tool ? tool.validate(input) : { ok: true, value: input };
    },
  });
  try {
    for await (const item of intercept(replayRun())) {
      if (item.type === "hook_warning") append(heard.warnings, current, item.message);
    }
  } finally {
    offInt();
    offTerm();
  }
  if (controller.signal.aborted)
    throw new CliError("replay interrupted; running hooks were stopped.", EXIT.sigint);
  return heard;
}

function append<T>(map: Map<number, T[]>, key: number, value: T): void {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}

export function registerHooksReplay(hooks: Command, ctx: CommandContext): void {
  hooks
    .command("replay")
    .description(
      "re-run the current hooks against the events of a recorded session (no model, no tools) and show what they decide differently",
    )
    .argument(
      "<transcript>",
      "transcript file (<ACAI_HOME>/transcripts/*.jsonl) or session id (its start is enough, as `acai hooks log` prints it)",
    )
    .option("--json", "print JSON", false)
    .addHelpText(
      "after",
      "\nacai's own flags apply: --trust-project (run untrusted project hooks this once), --no-project, -y/--yes (approve `ask`; denied otherwise, as in acai -p).",
    )
    .action((target: string, _options: unknown, command: Command) =>
      runToolkitCommand(ctx, async () => {
        // --trust-project, --no-project (and their older names) and --yes belong to the root program.
        const raw = command.optsWithGlobals() as {
          json?: boolean;
          yes?: boolean;
          trustProjectHooks?: boolean;
          trustProject?: boolean;
          projectHooks?: boolean;
          project?: boolean;
        };
        const trustOnce = raw.trustProject === true || raw.trustProjectHooks === true;
        const noProject = raw.project === false || raw.projectHooks === false;
        const { io } = ctx;
        const [{ withInventory }, { hookProcessRunner }] = await Promise.all([
          import("./hooks-inventory.js"),
          import("./hook-runner.js"),
        ]);
        const runProcess = await hookProcessRunner();
        const where = {
          cwd: io.cwd,
          env: io.env,
          homeDir: io.homeDir,
          runner: runProcess,
          loadUntrustedProject: trustOnce,
          skipProject: noProject,
        };
        // The plugins' workers run the replay, and are stopped once it is over.
        const { inventory, hookSet, file, recorded, runs, warnings, now } = await withInventory(
          where,
          async (inventory) => {
            if (inventory.projectTrust === "untrusted" && !inventory.projectLoaded && !noProject) {
              throw new CliError(
                `This project's hooks are not trusted, and replay runs them. Review them (\`acai hooks list\`), then run \`acai hooks trust\`; or pass --trust-project (this run only) or --no-project.`,
                EXIT.untrustedHooks,
              );
            }
            const hookSet: HookDefinition[] = inventory.entries.flatMap((entry) =>
              entry.status === "ok" && (entry.hook.scope === "user" || inventory.projectLoaded)
                ? [entry.hook]
                : [],
            );
            const file = await resolveTranscript(target, io.cwd, inventory.paths.transcriptsDir);
            const recorded = parseTranscript(await readFile(file, "utf8"), file);
            const heard = await replayEvents({
              inventory,
              hookSet,
              recorded,
              io,
              runner: runProcess,
              assumeYes: raw.yes === true,
            });
            return { inventory, hookSet, file, recorded, ...heard };
          },
        );
        const { HOOK_EVENT_OF } = await import("../../hooks/events/names.js");

        const results: ReplayedEvent[] = [];
        for (const item of recorded) {
          const hookEvent = HOOK_EVENT_OF[item.event.type];
          if (hookEvent === undefined) continue;
          const itemRuns = runs.get(item.index) ?? [];
          const applied = item.applied ?? CONTINUE;
          const nowVerdict = now.get(item.index) ?? CONTINUE;
          if (
            itemRuns.length === 0 &&
            item.applied === undefined &&
            now.get(item.index) === undefined
          )
            continue;
          results.push({
            index: item.index,
            type: item.event.type,
            hook_event: hookEvent,
            summary: summarize(item.event),
            runs: itemRuns,
            warnings: warnings.get(item.index) ?? [],
            applied,
            now: nowVerdict,
            differs: verdictDiff(applied, nowVerdict),
          });
        }
        const changed = results.filter((r) => r.differs.length > 0);
        const sessionId = recorded.find((r) => r.event.type === "session_start");

        if (raw.json) {
          io.stdout.write(
            `${jsonForTerminal(
              {
                transcript: file,
                session:
                  sessionId?.event.type === "session_start" ? sessionId.event.sessionId : undefined,
                hooks: hookSet.map((h) => ({
                  name: h.name,
                  scope: h.scope,
                  source: h.sourceKind,
                  file: h.file,
                })),
                events: recorded.length,
                replayed: results,
                differences: changed.length,
              },
              2,
            )}\n`,
          );
          return EXIT.ok;
        }
        const out: string[] = [
          `Replaying ${recorded.length} recorded events of ${file}`,
          `against the current hooks (${hookSet.length}: ${hookSet.map((h) => h.name).join(", ") || "none"}). Hooks run for real; no model, no tools.`,
        ];
        if (inventory.projectTrust === "untrusted" && !inventory.projectLoaded)
          out.push("Project hooks left out (--no-project).");
        for (const r of results) {
          out.push("", `#${r.index} ${r.hook_event} — ${r.summary}`);
          for (const run of r.runs) out.push(`    ${runText(run)}`);
          for (const warning of r.warnings) out.push(`    warning: ${warning}`);
          if (r.differs.length === 0) out.push(`    same as then: ${verdictText(r.now)}`);
          else {
            out.push(`    then: ${verdictText(r.applied)}`);
            out.push(`    now:  ${verdictText(r.now)}   ← differs (${r.differs.join(", ")})`);
          }
        }
        out.push(
          "",
          changed.length === 0
            ? `No differences: the current hooks decide as the session's did (${results.length} event${results.length === 1 ? "" : "s"} reached hooks or had verdicts).`
            : `${changed.length} of ${results.length} event(s) would be decided differently now: ${changed.map((r) => `#${r.index} ${r.hook_event}`).join(", ")}.`,
        );
        // Hook names, reasons and recorded inputs are project and model text: each line inert.
        io.stdout.write(`${out.map(inertText).join("\n")}\n`);
        return EXIT.ok;
      }),
    );
}
