/**
 * `acai hooks test <name|path> [--event E] [--input JSON|@file] [--tool T] [--json]`
 *
 * Runs ONE hook against a sample event, exactly as a session would (same
 * payload builder, same runner, same decoding), and shows everything: the
 * stdin sent, exit code, stdout, stderr, duration, the decision and what acai
 * would do with it. A hook whose matcher does not select the sample is not
 * run: a session would not run it either. Exit status: 0 acai would go on, 2 it would block (or
 * stop, or deny an `ask` headless), 1 the hook failed.
 */
import { randomUUID } from "node:crypto";
import { readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import type { AgentEvent } from "../../agent/events.js";
import type { Decision } from "../../hooks/decision.js";
import type { BrokenHook, HookDefinition, HookEventName } from "../../hooks/definition.js";
import type { MatchSubject } from "../../hooks/match.js";
import { meaningfulErrorLine } from "../../process/error-output.js";
import type { ProcessRunner } from "../../process/types.js";
import { inertLines, inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { CliError, UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import { parseEventOption } from "./hooks-init.js";
import type { HookEntry, Inventory } from "./hooks-inventory.js";
import { matcherText, subjectText, writtenMatcher } from "./hooks-matcher-text.js";
import { runToolkitCommand } from "./run-command.js";

interface TestOptions {
  event?: HookEventName;
  input?: string;
  tool?: string;
  json: boolean;
}

/** What `--input` says: inline JSON or `@file`; always an object merged over the sample payload. */
async function readInputOption(
  value: string | undefined,
  cwd: string,
): Promise<Record<string, unknown>> {
  if (value === undefined) return {};
  let text = value;
  let where = "--input";
  if (value.startsWith("@")) {
    const file = path.resolve(cwd, value.slice(1));
    where = `--input ${value}`;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new UsageError(
        `${where}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${where} is not valid JSON (${(error as Error).message}). Give an object such as '{"tool_input":{"command":"ls"}}' or @file.json.`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(
      `${where} must be a JSON object (fields of the payload to set), e.g. '{"prompt":"hi"}'.`,
    );
  }
  return parsed as Record<string, unknown>;
}

interface Target {
  hook: HookDefinition;
  /** Not trusted (or outside every hook folder): the user asked explicitly. */
  untrusted: boolean;
  adHoc: boolean;
}

async function realOrResolved(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return path.resolve(file);
  }
}

async function filesOf(entry: HookEntry): Promise<string[]> {
  const files: string[] = [];
  switch (entry.status) {
    case "ok":
      files.push(entry.hook.file);
      if (entry.hook.sourceKind === "hook_md") {
        files.push(path.dirname(entry.hook.file));
        files.push(...entry.hook.launch.args, entry.hook.launch.command);
      }
      break;
    case "broken":
      files.push(entry.broken.file);
      if (entry.broken.sourceKind === "hook_md") files.push(path.dirname(entry.broken.file));
      break;
    case "unknown":
      files.push(entry.candidate.path);
      break;
    default:
      return entry satisfies never;
  }
  return Promise.all(files.map(realOrResolved));
}

type StderrOf = (file: string) => string | undefined;

/** A runner that remembers each run's error output, to quote a failed describe's meaningful line. */
function recordingRunner(runner: ProcessRunner): { runner: ProcessRunner; stderrOf: StderrOf } {
  const stderrByFile = new Map<string, string>();
  return {
    runner: async (options) => {
      const result = await runner(options);
      for (const part of [options.command, ...(options.args ?? [])]) {
        stderrByFile.set(part, result.stderr);
      }
      return result;
    },
    stderrOf: (file) => stderrByFile.get(file),
  };
}

function brokenError(broken: BrokenHook, stderrOf: StderrOf): CliError {
  const cause = meaningfulErrorLine(stderrOf(broken.file) ?? "");
  const detail =
    cause !== "" && !broken.reason.includes(cause)
      ? `\n  its error output says: ${inertText(cause)}`
      : "";
  return new CliError(
    `hook ${inertText(broken.name ?? path.basename(broken.file))} (${inertText(broken.file)}) is broken and would not run: ${inertText(broken.reason)}${detail}`,
    EXIT.error,
  );
}

async function findTarget(
  inventory: Inventory,
  target: string,
  event: HookEventName | undefined,
  deps: {
    runner: ProcessRunner;
    env: Readonly<Record<string, string>>;
    cwd: string;
    stderrOf: StderrOf;
  },
): Promise<Target> {
  const { describeOne } = await import("./hooks-inventory.js");
  const describeOptions = {
    runner: deps.runner,
    env: deps.env,
    projectDir: inventory.projectDir,
    acaiHome: inventory.paths.home,
  };
  const describe = async (
    entry: Extract<HookEntry, { status: "unknown" }>,
  ): Promise<HookDefinition> => {
    const result = await describeOne(entry.candidate, describeOptions);
    if (!("launch" in result)) throw brokenError(result, deps.stderrOf);
    return result;
  };

  const asPath = path.resolve(deps.cwd, target);
  const fileStats = await stat(asPath).catch(() => undefined);
  if (fileStats !== undefined) {
    const real = await realOrResolved(asPath);
    for (const entry of inventory.entries) {
      if (!(await filesOf(entry)).includes(real)) continue;
      switch (entry.status) {
        case "ok":
          return { hook: entry.hook, untrusted: entry.trust === "untrusted", adHoc: false };
        case "broken":
          throw brokenError(entry.broken, deps.stderrOf);
        case "unknown":
          return { hook: await describe(entry), untrusted: true, adHoc: false };
        default:
          return entry satisfies never;
      }
    }
    if (!fileStats.isFile()) {
      throw new UsageError(
        `${target} is not a hook acai knows (run \`acai hooks list\`) nor an executable file.`,
      );
    }
    if ((fileStats.mode & 0o111) === 0) {
      throw new UsageError(`${target} is not executable; run \`chmod +x ${target}\` first.`);
    }
    const { scanFile } = await import("../../hooks/sources/files.js");
    const scanned = await scanFile(real, fileStats);
    const result = await describeOne({ ...scanned, scope: "project" }, describeOptions);
    if (!("launch" in result)) throw brokenError(result, deps.stderrOf);
    return { hook: result, untrusted: true, adHoc: true };
  }

  const named = inventory.entries.filter(
    (e): e is Extract<HookEntry, { status: "ok" }> => e.status === "ok" && e.hook.name === target,
  );
  const chosen =
    named.length > 1 && event !== undefined
      ? named.filter((e) => e.hook.events.includes(event))
      : named;
  if (chosen.length > 1) {
    const files = chosen
      .map((e) => `  ${inertText(e.hook.file)} (${inertText(e.hook.events.join(", "))})`)
      .join("\n");
    const settings = chosen.some((e) => e.hook.sourceKind === "settings")
      ? ', or give a settings hook its own "name"'
      : "";
    throw new UsageError(
      `${chosen.length} hooks are named "${inertText(target)}":\n${files}\nName one by its file${event === undefined ? ", pick its event with --event" : ""}${settings}.`,
    );
  }
  const only = chosen[0] ?? named[0];
  if (only) return { hook: only.hook, untrusted: only.trust === "untrusted", adHoc: false };
  const broken = inventory.entries.find(
    (e): e is Extract<HookEntry, { status: "broken" }> =>
      e.status === "broken" && e.broken.name === target,
  );
  if (broken) throw brokenError(broken.broken, deps.stderrOf);

  // An untrusted executable that was never described is found by its file name only, and
  // only that one file is described: describing the others to learn their names would run
  // project code the user did not name.
  const unknown = inventory.entries.filter(
    (e): e is Extract<HookEntry, { status: "unknown" }> => e.status === "unknown",
  );
  const stem = (file: string) => path.basename(file).replace(/\.[^.]+$/, "");
  const byFile = unknown.filter(
    (e) => path.basename(e.candidate.path) === target || stem(e.candidate.path) === target,
  );
  if (byFile.length > 1) {
    const files = byFile.map((e) => `  ${inertText(e.candidate.path)}`).join("\n");
    throw new UsageError(
      `${byFile.length} hook files are named "${inertText(target)}":\n${files}\nName one by its file instead.`,
    );
  }
  const [entry] = byFile;
  if (entry) return { hook: await describe(entry), untrusted: true, adHoc: false };
  throw new UsageError(noHookNamed(inventory, target));
}

/** "no hook named X", with every name acai knows (run nothing to learn more). */
function noHookNamed(inventory: Inventory, target: string): string {
  const names = new Set<string>();
  for (const entry of inventory.entries) {
    if (entry.status === "ok") names.add(entry.hook.name);
    else if (entry.status === "broken")
      names.add(entry.broken.name ?? path.basename(entry.broken.file));
    else names.add(path.basename(entry.candidate.path));
  }
  const known =
    names.size === 0
      ? "There are no hooks here."
      : `Known hooks: ${[...names].sort().map(inertText).join(", ")}.`;
  return `no hook named "${inertText(target)}". ${known} \`acai hooks list\` shows every hook; an untrusted executable is found by its file name (its own name is not known until it runs), and you can also give a file path.`;
}

/** The sample event as the hook was sent it: `--input` may have replaced the tool, its input or the source. */
function asSent(agentEvent: AgentEvent, payload: Record<string, unknown>): AgentEvent {
  switch (agentEvent.type) {
    case "tool_call_start":
    case "tool_call_end":
    case "tool_call_error":
      return {
        ...agentEvent,
        ...(typeof payload.tool_name === "string" ? { toolName: payload.tool_name } : {}),
        ...("tool_input" in payload ? { input: payload.tool_input } : {}),
      };
    case "session_start":
      return typeof payload.source === "string"
        ? { ...agentEvent, source: payload.source as typeof agentEvent.source }
        : agentEvent;
    case "notification":
      return typeof payload.notification_type === "string"
        ? { ...agentEvent, notificationType: payload.notification_type }
        : agentEvent;
    default:
      return agentEvent;
  }
}

/** `--event`, or the hook's only event; a hook with several needs one named. */
function chooseEvent(hook: HookDefinition, given: HookEventName | undefined): HookEventName {
  if (given !== undefined) return given;
  const [only, ...others] = [...new Set(hook.events)];
  if (only !== undefined && others.length === 0) return only;
  throw new UsageError(
    `hook ${inertText(hook.name)} listens to ${inertText(hook.events.join(", "))}: name the event to send with --event (e.g. --event ${hook.events[0] ?? "before_tool"}).`,
  );
}

type Matches = (hook: HookDefinition, subject: MatchSubject) => boolean;

/** Whether a session's matching selects the hook for this sample (an unevaluable matcher: run it and see). */
function selects(matches: Matches, hook: HookDefinition, subject: MatchSubject): boolean {
  try {
    return matches(hook, subject);
  } catch {
    return true;
  }
}

/** The report of a hook a session would not run on this sample: nothing runs. */
function notSelected(args: {
  hook: HookDefinition;
  event: HookEventName;
  subject: MatchSubject;
  notes: readonly string[];
  json: boolean;
}): string {
  const { hook, event, subject } = args;
  const matcher = matcherText(hook) ?? "(none)";
  const sample = subjectText(subject, writtenMatcher(hook));
  const reason = `its matcher ${matcher} does not select this ${event} sample (${sample})`;
  if (args.json) {
    return `${jsonForTerminal(
      {
        hook: { name: hook.name, file: hook.file, scope: hook.scope, source: hook.sourceKind },
        notes: args.notes,
        event,
        selected: false,
        ran: false,
        reason,
        would: "not run this hook",
      },
      2,
    )}\n`;
  }
  return `${[
    `Testing ${inertText(hook.name)} (${hook.scope} ${hook.sourceKind}, ${inertText(hook.file)}) on ${event}`,
    ...args.notes,
    "",
    `a session would not run this hook: ${reason}.`,
    "Nothing was run. Give a sample it selects with --tool or --input to see what it does.",
  ].join("\n")}\n`;
}

function exitFor(answered: Decision, effective: Decision): number {
  if (answered.action === "failed") return EXIT.error;
  return effective.action === "block" || effective.action === "stop" || effective.action === "ask"
    ? 2
    : EXIT.ok;
}

function indent(text: string): string {
  return text
    .replace(/\n$/, "")
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

function decisionLines(decision: Decision): string[] {
  // What the hook answered is its text: inert, one line per field.
  const json = (value: unknown) => inertText(JSON.stringify(value) ?? "undefined");
  const lines = [`decision: ${decision.action}`];
  if (decision.action === "failed") lines.push(`  error:   ${inertText(decision.error)}`);
  if (decision.reason !== undefined) lines.push(`  reason:  ${inertText(decision.reason)}`);
  if (decision.action === "modify") {
    if (decision.input !== undefined) lines.push(`  input:   ${json(decision.input)}`);
    if (decision.inputPatch !== undefined)
      lines.push(`  input_patch: ${json(decision.inputPatch)}`);
    if (decision.prompt !== undefined) lines.push(`  prompt:  ${json(decision.prompt)}`);
    if (decision.output !== undefined) lines.push(`  output:  ${json(decision.output)}`);
  }
  if (decision.action === "retry") lines.push(`  retry_after_ms: ${decision.retryAfterMs}`);
  if (decision.context !== undefined) lines.push(`  context: ${json(decision.context)}`);
  if (decision.message !== undefined) lines.push(`  message: ${inertText(decision.message)}`);
  if (decision.log !== undefined) lines.push(`  log:     ${inertText(decision.log)}`);
  return lines;
}

export function registerHooksTest(hooks: Command, ctx: CommandContext): void {
  hooks
    .command("test")
    .description(
      "run one hook against a sample event and show exactly what happens (exit 0 go on, 2 would block, 1 failed)",
    )
    .argument("<hook>", "hook name (as in `acai hooks list`) or file path")
    .option(
      "--event <event>",
      "event to send (acai or Claude Code name; default: the hook's event when it has one)",
      parseEventOption,
    )
    .option(
      "--input <json>",
      "payload fields to set, as JSON or @file (merged over a realistic sample)",
    )
    .option(
      "--tool <name>",
      "tool of a tool event (default: the one the hook's matcher names, else Bash)",
    )
    .option("--json", "print one JSON object", false)
    .action((target: string, raw: TestOptions) =>
      runToolkitCommand(ctx, async () => {
        const { io } = ctx;
        const [
          { loadInventory },
          { hookProcessRunner, oneRequestPersistentHooks },
          { runHookOnce },
          { buildPayload },
          samples,
          { matchSubject },
          { hookMatches },
          { exitTwoCrashNote },
          { previewAnswer },
          { builtinTools },
        ] = await Promise.all([
          import("./hooks-inventory.js"),
          import("./hook-runner.js"),
          import("../../hooks/run.js"),
          import("../../hooks/payload.js"),
          import("./hooks-samples.js"),
          import("../../hooks/plan.js"),
          import("../../hooks/match.js"),
          import("../../hooks/crash-note.js"),
          import("../../hooks/preview.js"),
          import("../../tools/registry.js"),
        ]);
        const extra = await readInputOption(raw.input, io.cwd);
        const runProcess = await hookProcessRunner();
        const describing = recordingRunner(runProcess);
        const inventory = await loadInventory({
          cwd: io.cwd,
          env: io.env,
          homeDir: io.homeDir,
          runner: describing.runner,
        });
        const found = await findTarget(inventory, target, raw.event, {
          runner: describing.runner,
          env: io.env,
          cwd: io.cwd,
          stderrOf: describing.stderrOf,
        });
        const { hook } = found;
        const event = chooseEvent(hook, raw.event);

        const toolName =
          raw.tool ??
          (typeof extra.tool_name === "string"
            ? extra.tool_name
            : samples.defaultToolFor(hook.matcher.tool));
        const sessionId = `hooks-test-${randomUUID()}`;
        const agentEvent = await samples.sampleAgentEvent({
          event: event,
          toolName,
          projectDir: inventory.projectDir,
          sessionId,
          transcriptPath: path.join(inventory.paths.transcriptsDir, `${sessionId}.jsonl`),
          model: "openai:gpt-4.1",
        });
        const payload = {
          ...buildPayload({
            event: event,
            agentEvent,
            session: {
              sessionId,
              transcriptPath: path.join(inventory.paths.transcriptsDir, `${sessionId}.jsonl`),
              cwd: inventory.projectDir,
            },
            dialect: hook.dialect,
            trigger: hook.trigger,
            now: Date.now(),
          }),
          ...extra,
        };

        const notes: string[] = [];
        if (found.untrusted) {
          notes.push(
            found.adHoc
              ? "note: this file is not one of the hooks acai loads; running it anyway because you asked."
              : "note: this project's hooks are not trusted; running this one hook anyway because you asked (trust is not recorded).",
          );
        }
        if (!hook.events.includes(event)) {
          notes.push(
            `note: ${inertText(hook.name)} does not listen to ${event} (its events: ${inertText(hook.events.join(", "))}); running it anyway.`,
          );
        } else {
          const subject = matchSubject(
            event,
            asSent(agentEvent, payload),
            {},
            inventory.projectDir,
          );
          if (!selects(hookMatches, hook, subject)) {
            io.stdout.write(notSelected({ hook, event, subject, notes, json: raw.json }));
            return EXIT.ok;
          }
        }

        const record = await runHookOnce(hook, event, payload, {
          runner: runProcess,
          env: io.env,
          projectDir: inventory.projectDir,
          sessionId,
          // A persistent hook: its process is started for this one request, then stopped.
          ...(hook.launch.mode === "persistent"
            ? {
                persistent: await oneRequestPersistentHooks({
                  env: io.env,
                  projectDir: inventory.projectDir,
                  sessionId,
                }),
              }
            : {}),
        });
        const tools = new Map(builtinTools().map((tool) => [tool.name, tool]));
        const preview = previewAnswer({
          event,
          agentEvent: asSent(agentEvent, payload),
          hook,
          decision: record.decision,
          validateToolInput: (name, input) => {
            const tool = tools.get(name);
            return tool ? tool.validate(input) : { ok: true, value: input };
          },
        });
        const { answered, effective, newInput } = preview;
        const exitCode = exitFor(answered, effective);
        const crash = answered.action === "block" ? exitTwoCrashNote(record) : undefined;

        if (raw.json) {
          io.stdout.write(
            `${jsonForTerminal(
              {
                hook: {
                  name: hook.name,
                  file: hook.file,
                  scope: hook.scope,
                  source: hook.sourceKind,
                  failure: hook.failure,
                  timeout_ms: hook.timeoutMs,
                },
                untrusted: found.untrusted,
                notes,
                event,
                stdin: record.stdin,
                exit_code: record.exitCode,
                signal: record.signal,
                timed_out: record.timedOut,
                killed_for_output: record.outputLimit,
                duration_ms: Math.round(record.durationMs),
                stdout: record.stdout,
                stderr: record.stderr,
                decision: answered,
                effective,
                ...(newInput === undefined ? {} : { new_input: newInput }),
                ...(crash === undefined ? {} : { note: crash }),
                would: preview.would,
              },
              2,
            )}\n`,
          );
          return exitCode;
        }

        const out: string[] = [
          `Testing ${inertText(hook.name)} (${hook.scope} ${hook.sourceKind}, ${inertText(hook.file)}) on ${event}${payload.tool_name !== undefined ? ` with tool ${inertText(String(payload.tool_name))}` : ""}`,
          ...notes,
          "",
          `stdin sent (${inertText(hook.launch.viaShell ? `/bin/sh -c ${hook.launch.command}` : [hook.launch.command, ...hook.launch.args].join(" "))}):`,
          indent(inertLines(record.stdin)),
          "",
          `exit code: ${record.exitCode ?? `none (${record.signal ?? "not started"})`} · ${Math.round(record.durationMs)} ms${record.timedOut ? ` · TIMED OUT after ${hook.timeoutMs} ms (process group killed)` : ""}${record.outputLimit ? " · killed: output cap passed" : ""}`,
          record.stdout === ""
            ? "stdout: (empty)"
            : `stdout:\n${indent(inertLines(record.stdout.slice(0, 8000)))}${record.stdout.length > 8000 ? "\n  … (cut)" : ""}`,
          record.stderr === ""
            ? "stderr: (empty)"
            : `stderr:\n${indent(inertLines(record.stderr.slice(0, 8000)))}${record.stderr.length > 8000 ? "\n  … (cut)" : ""}`,
          "",
          ...decisionLines(answered),
        ];
        if (newInput !== undefined)
          out.push(`  new tool input (validated): ${inertText(JSON.stringify(newInput))}`);
        if (answered.action === "failed") {
          const cause = meaningfulErrorLine(record.stderr);
          if (cause !== "" && !answered.error.includes(cause))
            out.push(`  its error output says: ${inertText(cause)}`);
          out.push(
            preview.refused
              ? `the new input fails the tool's schema: acai would refuse the call whatever the failure policy — ${inertText(effective.reason ?? "")}`
              : effective.action === "block"
                ? `failure policy "closed": acai would block — ${inertText(effective.reason ?? "")}`
                : `failure policy "${hook.failure}": acai would warn and go on.`,
          );
        }
        if (crash !== undefined) out.push(`note: ${inertText(crash)}.`);
        out.push(`acai would: ${preview.would}.`);
        io.stdout.write(`${out.join("\n")}\n`);
        return exitCode;
      }),
    );
}
