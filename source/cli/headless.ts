import type { RunInput } from "../agent/types.js";
import type { InterceptedEvent } from "../hooks/run/activity.js";
import { DEFAULT_SESSION_END_BUDGET_MS } from "../hooks/run/interceptor.js";
import { sessionPrice } from "../models/pricing.js";
import { windDownMs } from "../process/wind-down.js";
import { prepareSession } from "../session/prepare.js";
import type { PreparedSession } from "../session/types.js";
import { stripControls } from "../terminal/inert-text.js";
import { CliError, UsageError } from "./errors.js";
import { EXIT } from "./exit-codes.js";
import { type CliIo, type CliSignal, readAll } from "./io.js";
import { type ListenTurns, listenTurns } from "./listen.js";
import type { MainOptions } from "./main-options.js";
import { emptyOutcome, exitCodeFor, OutcomeTracker } from "./outcome.js";
import { createPrinter, type Printer } from "./print.js";
import { classify } from "./session-errors.js";
import { sessionFlags } from "./session-flags.js";

/** After an abort, the least time the run may take to wind down before acai exits anyway. */
const ABORT_GRACE_MS = 10_000;

/** SIGHUP (the terminal went away) is handled as SIGTERM, with the shell's 128+1. */
const SIGNAL_EXIT: Record<CliSignal, number> = {
  SIGINT: EXIT.sigint,
  SIGTERM: EXIT.sigterm,
  SIGHUP: EXIT.sighup,
};

/** What the signal handlers and the run share: the first signal received, the session once prepared. */
interface HeadlessState {
  received?: CliSignal | undefined;
  session?: PreparedSession | undefined;
}

/** `acai -p`: one prompt through the one agent loop, printed in the chosen format. */
export async function runHeadless(io: CliIo, options: MainOptions): Promise<number> {
  const started = Date.now();
  const printer = createPrinter(options.outputFormat, io, {
    verbose: options.verbose,
    stdoutIsTTY: io.stdoutIsTTY,
    assumeYes: options.yes,
  });
  const controller = new AbortController();
  const state: HeadlessState = {};
  const unsubscribe = handleSignals(io, controller, state);
  let listening: ListenTurns | undefined;
  try {
    const prompt = options.listen
      ? listenPrompt(options)
      : await resolvePrompt(io, options, controller.signal);
    const prepared = await prepareSession({
      cwd: io.cwd,
      env: io.env,
      homeDir: io.homeDir,
      flags: sessionFlags(options),
      signal: controller.signal,
      ui: "print",
      shellGrammarBaselineOnly: true,
    });
    state.session = prepared;
    if (prompt === "" && !prepared.deferredCalls) {
      throw new UsageError(
        'the prompt is empty: give one with -p "your prompt", or pipe it on stdin (only a session stopped at a deferred tool call goes on without one).',
      );
    }
    announce(io, options, prepared, printer);
    if (state.received) return signalExit(state.received);
    listening = startListening(io, options, prepared, prompt);
    const outcome = await runPrompts(prepared, listening ?? [{ prompt: prompt ?? "" }], listening, {
      signal: controller.signal,
      printer,
    });
    const exitCode = state.received ? signalExit(state.received) : exitCodeFor(outcome, undefined);
    printer.finish(outcome, {
      sessionId: prepared.sessionId,
      model: prepared.modelId,
      durationMs: Date.now() - started,
      exitCode,
      price: sessionPrice({ ...prepared, baseUrlFlag: options.baseUrl, env: io.env }),
    });
    return exitCode;
  } catch (error) {
    const classified = classify(error, io.env.ACAI_DEBUG === "1");
    const { received, session } = state;
    const exitCode = received ? signalExit(received) : classified.code;
    // Interrupted while reading the prompt or preparing: say so, not "received SIGINT".
    const message =
      received && error === controller.signal.reason
        ? `interrupted by ${received}`
        : classified.message;
    failBeforeRun(printer, io, options, message, exitCode, session, Date.now() - started);
    return exitCode;
  } finally {
    listening?.close();
    for (const off of unsubscribe) off();
  }
}

/**
 * First signal: abort (hooks and tools are stopped, session_end hooks run within their
 * budget). A second one, or the wind-down running out: exit now — forceExit kills
 * everything acai started first (containment), TERM-trapping hooks included.
 */
function handleSignals(
  io: CliIo,
  controller: AbortController,
  state: HeadlessState,
): Array<() => void> {
  const onSignal = (signal: CliSignal) => () => {
    const code = SIGNAL_EXIT[signal];
    if (state.received) {
      io.forceExit(code);
      return;
    }
    state.received = signal;
    controller.abort(new Error(`received ${signal}`));
    const budget = state.session?.sessionEndBudgetMs ?? DEFAULT_SESSION_END_BUDGET_MS;
    setTimeout(() => io.forceExit(code), windDownMs(budget, ABORT_GRACE_MS)).unref();
  };
  return (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((signal) =>
    io.onSignal(signal, onSignal(signal)),
  );
}

/** The session's warnings and notes, and with --verbose its sandbox line. */
function announce(
  io: CliIo,
  options: MainOptions,
  prepared: PreparedSession,
  printer: Printer,
): void {
  for (const warning of prepared.warnings) printer.warning(warning);
  // Messages dropped by relay.acceptFrom, store rows moved aside: for the user, not the model.
  prepared.relay?.onNote((line) => printer.warning(line));
  if (options.verbose && options.outputFormat === "text" && prepared.sandboxLine) {
    io.stderr.write(`acai: ${prepared.sandboxLine}\n`);
  }
}

/** `--listen`: the prompts are the messages that arrive (after the first prompt, if any). */
function startListening(
  io: CliIo,
  options: MainOptions,
  prepared: PreparedSession,
  prompt: string | undefined,
): ListenTurns | undefined {
  if (!options.listen) return undefined;
  if (!prepared.relay) {
    throw new CliError(
      "--listen needs messages between agents, which are off for this session (see the warning above, or relay.enabled in settings)",
      EXIT.error,
    );
  }
  const listening = listenTurns(prompt, prepared.relay);
  if (options.outputFormat === "text") {
    const name = prepared.relay.name;
    io.stderr.write(
      `acai: listening as ${name} (${prepared.relay.transport} relay): acai send ${name} MESSAGE, or @relay:${name} from another agent; Ctrl-C stops\n`,
    );
  }
  return listening;
}

/** Every event of the run to the outcome tracker and the printer. */
async function runPrompts(
  prepared: PreparedSession,
  prompts: RunInput["prompts"],
  listening: ListenTurns | undefined,
  how: { signal: AbortSignal; printer: Printer },
): Promise<OutcomeTracker["outcome"]> {
  const tracker = new OutcomeTracker();
  const events: AsyncGenerator<InterceptedEvent, void, undefined> = prepared.run({
    prompts,
    signal: how.signal,
    // agent-relay's onIdle inject wakes a listening agent: a turn of its own.
    ...(listening ? { onIdle: (idle) => listening.idle(idle.context.join("\n\n")) } : {}),
    // Asked once the turn is over (its turn_end already observed): a session_end hook
    // can tell a run that failed (provider error) from one that completed.
    endReason: () => (tracker.outcome.stopReason === "error" ? "error" : "completed"),
  });
  for await (const event of events) {
    tracker.observe(event);
    how.printer.event(event);
  }
  return tracker.outcome;
}

/** `--listen`: the prompt is optional (the agent waits for messages); stdin is not read. */
function listenPrompt(options: MainOptions): string | undefined {
  if (options.print === undefined) {
    throw new UsageError("--listen is for acai -p (the REPL receives messages anyway).");
  }
  const prompt = typeof options.print === "string" ? options.print : options.prompt;
  return prompt?.trim() ? prompt : undefined;
}

function signalExit(signal: CliSignal): number {
  return SIGNAL_EXIT[signal];
}

async function resolvePrompt(
  io: CliIo,
  options: MainOptions,
  signal: AbortSignal,
): Promise<string> {
  let prompt = typeof options.print === "string" ? options.print : options.prompt;
  if (prompt === undefined) {
    if (io.stdinIsTTY) {
      throw new UsageError('no prompt: give one with -p "your prompt", or pipe it on stdin.');
    }
    prompt = await readAll(io.stdin, signal);
  }
  if (prompt.trim() === "") {
    // `acai -p --resume ID` of a deferred run may go on without a prompt (checked once prepared).
    if (options.resume !== undefined || options.continue) return "";
    throw new UsageError(
      'the prompt is empty: give one with -p "your prompt", or pipe it on stdin.',
    );
  }
  return prompt;
}

function failBeforeRun(
  printer: Printer,
  io: CliIo,
  options: MainOptions,
  message: string,
  exitCode: number,
  session: PreparedSession | undefined,
  durationMs: number,
): void {
  // The message may name project files (untrusted hooks): no control characters on the terminal.
  // An interruption is no error of the user's: `acai: interrupted by SIGINT`, as after a run.
  const label = message.startsWith("interrupted by ") ? "" : "error: ";
  io.stderr.write(`acai: ${label}${stripControls(message)}\n`);
  if (options.outputFormat === "text") return;
  // Machine formats still end with a result object; humans get the message on stderr too.
  printer.finish(emptyOutcome(), {
    sessionId: session?.sessionId ?? "",
    model: session?.modelId ?? options.model ?? "",
    durationMs,
    exitCode,
    error: message,
  });
}
