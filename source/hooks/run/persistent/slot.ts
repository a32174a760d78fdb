/**
 * One persistent hook's process over a session (hooks.md §6.4): started at
 * its first request, requests written as lines with ids, answers matched by
 * id, several requests in flight at once.
 *
 * Everything the process does wrong is a failure of a request or of the
 * process, never of acai: a request past its timeout fails and the process is
 * restarted; an exit (a crash) fails what was in flight; a line that is not an
 * answer to a waiting request (not JSON, no id, an unknown or repeated id),
 * or longer than the cap, or requests it does not read, end the process and
 * fail what was in flight. Each end counts as a crash: the first restart is
 * immediate, the next ones wait (backoff below), and a request arriving while
 * it waits fails at once. An answer resets the count.
 */
import { meaningfulErrorLine } from "../../../process/error-output.js";
import type { LongLived, LongLivedExit, ProcessStarter } from "../../../process/long-lived.js";
import { type Decision, failed } from "../../contract/decision.js";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import { describeSpawnFailure, formatBytes } from "../decode.js";
import { AbortWatch } from "./abort-watch.js";
import type { Outbox } from "./outbox.js";
import { readAnswerLine } from "./protocol.js";
import { RequestTimeout } from "./request-timeout.js";

/** Delay before the n-th restart in a row (n ≥ 1): 0, then 250 ms doubling up to 30 s. */
export function restartDelayMs(crashes: number): number {
  if (crashes <= 1) return 0;
  return Math.min(30_000, 250 * 2 ** (crashes - 2));
}

/** How one request ended, before it becomes a HookRunRecord. */
export interface Outcome {
  decision: Decision;
  /** The answer line. */
  stdout?: string;
  stderr?: string;
  exitCode?: number | null;
  signal?: NodeJS.Signals | null;
  timedOut?: boolean;
  aborted?: boolean;
  outputLimit?: boolean;
  spawnError?: string;
}

export interface SlotOptions {
  hook: HookDefinition;
  starter: ProcessStarter;
  /** The process's environment, made when it starts. */
  env: () => Record<string, string>;
  command: string;
  args: readonly string[];
  cwd: string;
  maxLineBytes: number;
  /** Requests in flight at once; past it a request fails at once. */
  maxPending: number;
  /** Request bytes it has not read yet; past it the process is ended. */
  maxUnreadBytes: number;
  now: () => number;
  /** Where its requests are written (held while a chain asks several hooks at once). */
  outbox: Outbox;
}

interface Waiting {
  settle: (outcome: Outcome) => void;
  /** The event asked about: its answer is read as a spawned hook's answer to it is (A3S's `modified`). */
  event?: HookEventName;
  /** When it was sent (`performance.now()`): its timeout counts from there. */
  sentAt: number;
  signal?: AbortSignal;
}

/** One request as sent. */
interface Asked {
  id: number;
  sent: string;
  signal: AbortSignal | undefined;
  event: HookEventName | undefined;
}

interface Instance {
  proc?: LongLived;
  /** In the order they were sent: the first is the one whose timeout comes first. */
  pending: Map<number, Waiting>;
  ended?: Outcome;
  /** Stopped by acai at session end: its exit is not a crash. */
  stopping: boolean;
  /** Its requests' timeouts, on one timer. */
  timeouts: RequestTimeout;
}

/** Late answers to requests that were aborted are dropped, not taken as unknown ids (bounded). */
const MAX_ABANDONED = 1024;

export class HookProcessSlot {
  private readonly options: SlotOptions;
  private current: Instance | undefined;
  private starting: Promise<Instance> | undefined;
  private crashes = 0;
  private restartAt = 0;
  private closed = false;
  private nextId = 0;
  private readonly abandoned = new Set<number>();
  /** Its processes whose requests may be waiting: the current one, and one ending. */
  private readonly live = new Set<Instance>();
  /** The signals its requests came with, each listened to once while requests carry it. */
  private readonly aborts = new AbortWatch(
    (signal) => this.aborted(signal),
    (signal) => this.waitingWith(signal),
  );

  constructor(options: SlotOptions) {
    this.options = options;
  }

  /**
   * Sends `line(id)` and waits for the answer to that id, the timeout, the
   * signal, or the process's end; the answer is read for `event`.
   */
  request(
    line: (id: number) => string,
    signal?: AbortSignal,
    event?: HookEventName,
  ): Promise<Outcome & { sent: string }> {
    if (this.closed) {
      return Promise.resolve({ sent: "", decision: failed("was not sent: the session is ending") });
    }
    if (signal?.aborted) {
      return Promise.resolve({ sent: "", decision: failed("aborted"), aborted: true });
    }
    const id = ++this.nextId;
    let sent: string;
    try {
      sent = line(id);
    } catch (error) {
      const why = `was not sent: its payload cannot be serialized (${(error as Error).message})`;
      return Promise.resolve({ sent: "", decision: failed(why) });
    }
    const wait = this.restartAt - this.options.now();
    if (wait > 0) {
      const why = `ended ${this.crashes} times in a row; it is started again in ${Math.ceil(wait)} ms`;
      return Promise.resolve({ sent, decision: failed(why) });
    }
    // The usual case, its process running: sent now, not after a turn of waiting on it.
    const running = this.current;
    const asked = { id, sent, signal, event };
    if (running !== undefined) return this.send(running, asked);
    return this.instance().then((inst) => this.send(inst, asked));
  }

  private send(inst: Instance, asked: Asked): Promise<Outcome & { sent: string }> {
    const { id, sent, signal } = asked;
    if (inst.ended !== undefined) return Promise.resolve({ sent, ...inst.ended });
    if (inst.pending.size >= this.options.maxPending) {
      const why = `has ${inst.pending.size} requests waiting for an answer (the limit); this one was not sent`;
      return Promise.resolve({ sent, decision: failed(why) });
    }
    return new Promise((resolve) => {
      const settle = (outcome: Outcome): void => {
        if (!inst.pending.delete(id)) return;
        if (inst.pending.size === 0) inst.timeouts.idle();
        resolve({ sent, ...outcome });
      };
      const waiting: Waiting = { settle, sentAt: 0 };
      if (asked.event !== undefined) waiting.event = asked.event;
      if (signal !== undefined) waiting.signal = signal;
      inst.pending.set(id, waiting);
      // Written first: what follows is acai's own bookkeeping, done while the hook reads.
      this.options.outbox.send(inst.proc, sent, () => this.written(inst, waiting, signal));
    });
  }

  /** After a request's write: its timeout counts from now; a process that does not read is ended. */
  private written(inst: Instance, waiting: Waiting, signal: AbortSignal | undefined): void {
    waiting.sentAt = performance.now();
    inst.timeouts.sent();
    this.aborts.watch(signal);
    if ((inst.proc?.pendingBytes() ?? 0) > this.options.maxUnreadBytes) {
      this.end(
        inst,
        `does not read its requests (${formatBytes(this.options.maxUnreadBytes)} unread)`,
      );
    }
  }

  /** The oldest request waiting is past its timeout: it fails, and the process is ended. */
  private timedOut(inst: Instance): void {
    const oldest = inst.pending.values().next();
    if (inst.ended !== undefined || oldest.done === true) return;
    const { timeoutMs } = this.options.hook;
    oldest.value.settle({ decision: failed(`timed out after ${timeoutMs} ms`), timedOut: true });
    this.end(inst, `another request timed out after ${timeoutMs} ms`);
  }

  /** Its requests still waiting with this signal fail as aborted; their late answers are dropped. */
  private aborted(signal: AbortSignal): void {
    for (const inst of this.live) {
      for (const [id, waiting] of [...inst.pending]) {
        if (waiting.signal !== signal) continue;
        this.abandon(id);
        waiting.settle({ decision: failed("aborted"), aborted: true });
      }
    }
  }

  private waitingWith(signal: AbortSignal): boolean {
    for (const inst of this.live) {
      for (const waiting of inst.pending.values()) if (waiting.signal === signal) return true;
    }
    return false;
  }

  /** Closes its stdin and waits up to `graceMs` for it to exit; then its tree is killed. */
  async stop(graceMs: number): Promise<void> {
    this.closed = true;
    const inst = this.current ?? (await this.starting);
    if (inst?.proc === undefined || inst.ended !== undefined) return;
    inst.stopping = true;
    await inst.proc.stop(graceMs);
  }

  /** Kills its process and tree now; what is in flight fails as aborted. */
  kill(): void {
    this.closed = true;
    const inst = this.current;
    if (inst === undefined || inst.ended !== undefined) return;
    inst.stopping = true;
    this.retire(inst, { decision: failed("aborted"), aborted: true });
    inst.proc?.kill();
  }

  private instance(): Promise<Instance> {
    if (this.current !== undefined) return Promise.resolve(this.current);
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async start(): Promise<Instance> {
    const o = this.options;
    const pending = new Map<number, Waiting>();
    const inst: Instance = {
      pending,
      stopping: false,
      timeouts: new RequestTimeout(
        o.hook.timeoutMs,
        () => pending.values().next().value?.sentAt,
        () => this.timedOut(inst),
      ),
    };
    const proc = await o.starter({
      command: o.command,
      args: o.args,
      cwd: o.cwd,
      env: o.env(),
      maxLineBytes: o.maxLineBytes,
      onLine: (text) => this.onLine(inst, text),
      onLineTooLong: () =>
        this.end(inst, `printed a line longer than ${formatBytes(o.maxLineBytes)}`, {
          outputLimit: true,
        }),
      onExit: (exit) => this.onExit(inst, exit),
    });
    inst.proc = proc;
    if (inst.ended === undefined) this.live.add(inst);
    // Started after a stop or kill (the session ended while it started): not kept.
    if (this.closed) proc.kill();
    else if (inst.ended === undefined) this.current = inst;
    return inst;
  }

  private onLine(inst: Instance, text: string): void {
    const line = readAnswerLine(text, (id) => inst.pending.get(id)?.event);
    if (line.kind === "blank") return;
    if (line.kind === "garbage") {
      this.end(inst, line.why);
      return;
    }
    const waiting = inst.pending.get(line.id);
    if (waiting === undefined) {
      if (this.abandoned.delete(line.id)) return;
      this.end(
        inst,
        `answered id ${line.id}, which is not waiting for an answer (unknown, or answered already)`,
      );
      return;
    }
    this.crashes = 0;
    this.restartAt = 0;
    waiting.settle({ decision: line.decision, stdout: text });
  }

  private onExit(inst: Instance, exit: LongLivedExit): void {
    const stderr = inst.proc?.stderrTail() ?? "";
    if (inst.stopping) {
      this.retire(inst, { decision: failed("was stopped: the session ended"), stderr });
      return;
    }
    let why: string;
    if (exit.spawnError !== undefined) why = describeSpawnFailure(exit.spawnError);
    else if (exit.code === null) why = `was killed by ${exit.signal ?? "a signal"}`;
    else {
      const line = meaningfulErrorLine(stderr.trim());
      why = `exited with ${exit.code}${line ? `: ${line}` : " (no error output)"}`;
    }
    this.crashed(inst, {
      decision: failed(why),
      stderr,
      exitCode: exit.code,
      signal: exit.signal,
      ...(exit.spawnError === undefined ? {} : { spawnError: exit.spawnError }),
    });
  }

  /** Ends the process for something it did; what was in flight fails with `why`. */
  private end(inst: Instance, why: string, extra: Partial<Outcome> = {}): void {
    if (inst.ended !== undefined) return;
    const stderr = inst.proc?.stderrTail() ?? "";
    this.crashed(inst, { ...extra, decision: failed(`${why}; its process is restarted`), stderr });
    inst.proc?.kill();
  }

  private crashed(inst: Instance, outcome: Outcome): void {
    if (inst.ended !== undefined) return;
    this.crashes++;
    this.restartAt = this.options.now() + restartDelayMs(this.crashes);
    this.retire(inst, outcome);
  }

  private retire(inst: Instance, outcome: Outcome): void {
    if (inst.ended !== undefined) return;
    inst.ended = outcome;
    inst.timeouts.stop();
    this.live.delete(inst);
    if (this.current === inst) this.current = undefined;
    for (const waiting of [...inst.pending.values()]) waiting.settle(outcome);
  }

  private abandon(id: number): void {
    this.abandoned.add(id);
    if (this.abandoned.size > MAX_ABANDONED) {
      const oldest = this.abandoned.values().next().value;
      if (oldest !== undefined) this.abandoned.delete(oldest);
    }
  }
}
