/**
 * What `acai hooks test` prints: the run (what was sent, how it ended, what
 * came back), the decision and what acai would do — as text or one JSON
 * object; or why a session would not run the hook on this sample. Everything
 * the hook or the project wrote is shown inert.
 */
import type { Decision } from "../../hooks/contract/decision.js";
import type {
  HookDefinition,
  HookEventName,
  PluginLaunch,
} from "../../hooks/contract/definition.js";
import type { MatchSubject } from "../../hooks/contract/match.js";
import type { HookRunRecord } from "../../hooks/run/run-record.js";
import { meaningfulErrorLine } from "../../process/error-output.js";
import { inertLines, inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import { matcherText, subjectText, writtenMatcher } from "./matcher-text.js";
import type { TestRun } from "./test-run.js";

/** What was tested, on what: the head of every report. */
export interface Tested {
  hook: HookDefinition;
  event: HookEventName;
  notes: readonly string[];
  untrusted: boolean;
  payload: Record<string, unknown>;
}

function hookLine(hook: HookDefinition, event: HookEventName, tail = ""): string {
  return `Testing ${inertText(hook.name)} (${hook.scope} ${hook.sourceKind}, ${inertText(hook.file)}) on ${event}${tail}`;
}

/** The report of a hook a session would not run on this sample: nothing runs. */
export function notSelectedReport(tested: Tested, subject: MatchSubject, json: boolean): string {
  const { hook, event } = tested;
  const matcher = matcherText(hook) ?? "(none)";
  const sample = subjectText(subject, writtenMatcher(hook));
  const reason = `its matcher ${matcher} does not select this ${event} sample (${sample})`;
  if (json) {
    return `${jsonForTerminal(
      {
        hook: { name: hook.name, file: hook.file, scope: hook.scope, source: hook.sourceKind },
        notes: tested.notes,
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
    hookLine(hook, event),
    ...tested.notes,
    "",
    `a session would not run this hook: ${reason}.`,
    "Nothing was run. Give a sample it selects with --tool or --input to see what it does.",
  ].join("\n")}\n`;
}

export function jsonReport(tested: Tested, run: TestRun): string {
  const { hook, event } = tested;
  const { record, preview, crash } = run;
  const { answered, effective, newInput } = preview;
  return `${jsonForTerminal(
    {
      hook: {
        name: hook.name,
        file: hook.file,
        scope: hook.scope,
        source: hook.sourceKind,
        failure: hook.failure,
        timeout_ms: hook.timeoutMs,
      },
      untrusted: tested.untrusted,
      notes: tested.notes,
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
  )}\n`;
}

export function textReport(tested: Tested, run: TestRun): string {
  const { hook, event, payload } = tested;
  const { record, preview, crash } = run;
  const { answered, effective, newInput } = preview;
  const tool =
    payload.tool_name !== undefined ? ` with tool ${inertText(String(payload.tool_name))}` : "";
  const out: string[] = [
    hookLine(hook, event, tool),
    ...tested.notes,
    "",
    ...runLines(hook, record),
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
  return `${out.join("\n")}\n`;
}

/**
 * What was started, as the settings spell it: a line without shell syntax
 * runs as its program (decision 0075), said so, its variables not expanded.
 */
function startedText(launch: HookDefinition["launch"], record: HookRunRecord): string {
  if (!launch.viaShell) return [launch.command, ...launch.args].join(" ");
  return record.command === "/bin/sh"
    ? `/bin/sh -c ${launch.command}`
    : `${launch.command}, started without /bin/sh`;
}

/** What was sent and what came back: a process's stdin, exit and output. */
function runLines(hook: HookDefinition, record: HookRunRecord): string[] {
  const { launch } = hook;
  if (launch.mode === "plugin") return pluginRunLines(hook, launch, record);
  const command = startedText(launch, record);
  return [
    `stdin sent (${inertText(command)}):`,
    indent(inertLines(record.stdin)),
    "",
    `exit code: ${record.exitCode ?? `none (${record.signal ?? "not started"})`} · ${Math.round(record.durationMs)} ms${record.timedOut ? ` · TIMED OUT after ${hook.timeoutMs} ms (process group killed)` : ""}${record.outputLimit ? " · killed: output cap passed" : ""}`,
    streamLines("stdout", record.stdout),
    streamLines("stderr", record.stderr),
  ];
}

/** The same for a plugin's handler: the payload it was given, how it ended, its answer or error. */
function pluginRunLines(
  hook: HookDefinition,
  launch: PluginLaunch,
  record: HookRunRecord,
): string[] {
  const ms = `${Math.round(record.durationMs)} ms`;
  const ended = record.timedOut
    ? `no answer · ${ms} · TIMED OUT after ${hook.timeoutMs} ms (handler abandoned, its worker stopped)`
    : record.aborted
      ? `no answer · ${ms} · aborted`
      : `${record.exitCode === 0 ? "answered" : "failed"} · ${ms}`;
  return [
    `payload sent (to handler #${launch.registration} of ${inertText(launch.command)}, in the plugin's worker thread):`,
    indent(inertLines(record.stdin)),
    "",
    `handler: ${ended}${record.outputLimit ? " · answer past the output cap (not read)" : ""}`,
    streamLines("answer", record.stdout),
    streamLines("error", record.stderr),
  ];
}

/** A stream's text, cut past 8000 characters. */
function streamLines(name: string, text: string): string {
  if (text === "") return `${name}: (empty)`;
  const cut = text.length > 8000 ? "\n  … (cut)" : "";
  return `${name}:\n${indent(inertLines(text.slice(0, 8000)))}${cut}`;
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
