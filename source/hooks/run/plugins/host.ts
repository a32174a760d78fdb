/**
 * The session's plugins (hooks.md §6.3): one worker thread per plugin file
 * (worker.ts), so a handler that blocks its event loop blocks only its own
 * thread. A handler that does not answer in its `timeoutMs` is abandoned
 * (its AbortSignal fires); if the worker then does not answer a ping within
 * `stuckGraceMs`, its thread is blocked: the worker is terminated (V8 stops
 * even a `while (true)`) and started again, re-registered, on the plugin's
 * next call — at most `maxRestarts` times a session.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type ResourceLimits, Worker } from "node:worker_threads";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import {
  type RawRegistration,
  RawRegistrationSchema,
  type RegistrationShape,
} from "../../contract/plugin-registration.js";
import { notRunRecord } from "../run.js";
import type { HookRunRecord } from "../run-record.js";
import { type CallOutcome, pluginRecord, type RecordContext } from "./record.js";
import { handlerArgument } from "./shapes.js";
import type { PluginCall, PluginHooks } from "./types.js";

export interface PluginHostOptions {
  /** The workers' environment: secrets already removed, the containment marker set. */
  env: Readonly<Record<string, string>>;
  /**
   * How the plugins' own children start (worker.ts wraps child_process): through bwrap
   * with these options before the command (a PID namespace of their own), or — without
   * it — marked only.
   */
  children?: PluginChildren;
  /** How long `register(api)` may take (default 10 s). */
  loadTimeoutMs?: number;
  /** After a timeout, how long a worker has to answer a ping before it counts as stuck (default 500 ms). */
  stuckGraceMs?: number;
  /** Restarts per plugin and session (default 3); past them its hooks fail. */
  maxRestarts?: number;
  /** Per worker (default: 512 MB of heap); past it the worker dies, not acai. */
  resourceLimits?: ResourceLimits;
  /** Longest answer read (default 1 MiB, like a hook's stdout). */
  maxOutputBytes?: number;
  now?: () => number;
}

export interface PluginChildren {
  bwrap: string;
  prefix: readonly string[];
}

export type PluginLoad =
  | { ok: true; registrations: RawRegistration[]; problems: string[] }
  | { ok: false; reason: string };

interface WorkerMessage {
  type: string;
  id?: number;
  json?: string;
  text?: string;
  error?: string;
  reason?: string;
  registrations?: unknown;
  problems?: unknown;
  answers?: unknown;
}

function workerUrl(): URL {
  const js = new URL("./worker.js", import.meta.url);
  return existsSync(fileURLToPath(js)) ? js : new URL("./worker.ts", import.meta.url);
}

/** How often call deadlines are checked: a timeout fires at most this late. */
const SWEEP_MS = 20;

/**
 * One call out to a worker: everything its record needs, when it times out,
 * and how it is answered. One object per call (no closures): at hundreds of
 * thousands of calls a second, what a call allocates is what it costs.
 */
class OutCall implements RecordContext {
  now = 0;
  onAbort: (() => void) | undefined;
  constructor(
    readonly id: number,
    readonly hook: HookDefinition,
    readonly event: HookEventName,
    readonly shape: RegistrationShape,
    readonly payload: unknown,
    readonly startedAt: number,
    /** When it times out (the thread's sweeper checks). */
    readonly at: number,
    readonly maxOutputBytes: number,
    readonly signal: AbortSignal | undefined,
    readonly resolve: (record: HookRunRecord) => void,
  ) {}
}

/** One plugin file's worker and what is waiting on it. */
class PluginThread {
  worker: Worker | undefined;
  ready: Promise<PluginLoad> | undefined;
  /** Set once `ready` settled with a running worker: calls skip waiting on it. */
  loaded = false;
  /** Call id → the call: one sweeping timer per thread checks their deadlines, not one timer per call. */
  readonly pending = new Map<number, OutCall>();
  shapes: RegistrationShape[] = [];
  restarts = 0;
  private sweeper: NodeJS.Timeout | undefined;
  /** Calls not yet posted: those made in the same tick share one message. */
  private outbox: unknown[] = [];
  private pinging = false;

  constructor(
    readonly file: string,
    private readonly options: Required<Omit<PluginHostOptions, "resourceLimits" | "children">> &
      Pick<PluginHostOptions, "resourceLimits" | "children">,
  ) {}

  /** Ends a call once: its record, from what happened. */
  settle(out: OutCall, outcome: CallOutcome): void {
    if (!this.pending.delete(out.id)) return;
    if (out.onAbort !== undefined) out.signal?.removeEventListener("abort", out.onAbort);
    out.now = this.options.now();
    out.resolve(pluginRecord(out, outcome));
  }

  start(): Promise<PluginLoad> {
    const worker = new Worker(workerUrl(), {
      workerData: { file: this.file, children: this.options.children },
      env: { ...this.options.env },
      stdout: true,
      stderr: true,
      resourceLimits: this.options.resourceLimits ?? { maxOldGenerationSizeMb: 512 },
    });
    this.worker = worker;
    this.ready = new Promise<PluginLoad>((resolve) => {
      const timer = setTimeout(() => {
        resolve({
          ok: false,
          reason: `register(api) did not finish in ${this.options.loadTimeoutMs} ms`,
        });
        this.stop("its register(api) did not finish");
      }, this.options.loadTimeoutMs); // keeps acai alive while the plugin registers
      const settle = (load: PluginLoad): void => {
        clearTimeout(timer);
        this.loaded = load.ok && this.worker === worker;
        resolve(load);
      };
      worker.on("message", (msg: WorkerMessage) => this.onMessage(msg, settle));
      worker.on("error", (error) => {
        settle({ ok: false, reason: `failed: ${error.message}` });
        this.lost(`its plugin crashed (${error.message})`);
      });
      worker.on("exit", () => {
        settle({ ok: false, reason: "its worker exited while loading" });
        if (this.worker === worker) this.worker = undefined;
        this.lost("its plugin's worker exited");
      });
      // Last: a listener added after unref() would hold acai open again. The worker's
      // stdout and stderr are never read here (reading them would, too): worker.ts
      // keeps what the plugin prints away from acai's own output.
      worker.unref();
    });
    return this.ready;
  }

  private onMessage(msg: WorkerMessage, settle: (load: PluginLoad) => void): void {
    switch (msg.type) {
      case "answers":
        if (!Array.isArray(msg.answers)) return;
        for (const one of msg.answers as WorkerMessage[]) {
          const out = typeof one?.id === "number" ? this.pending.get(one.id) : undefined;
          if (out !== undefined) this.settle(out, answerOutcome(one));
        }
        return;
      case "pong":
        this.pinging = false;
        return;
      case "registered": {
        const parsed = RawRegistrationSchema.array().max(1000).safeParse(msg.registrations);
        const problems = Array.isArray(msg.problems) ? msg.problems.map(String).slice(0, 20) : [];
        if (!parsed.success)
          settle({ ok: false, reason: "reported registrations acai cannot read" });
        else settle({ ok: true, registrations: parsed.data, problems });
        return;
      }
      case "broken":
        settle({ ok: false, reason: String(msg.reason ?? "failed to load") });
        return;
    }
  }

  /** Starts checking deadlines (ref'd: acai stays up while a call is out). */
  watch(): void {
    this.sweeper ??= setTimeout(() => this.sweep(), SWEEP_MS);
  }

  private sweep(): void {
    this.sweeper = undefined;
    const now = this.options.now();
    let late = false;
    for (const out of this.pending.values()) {
      if (out.at > now) continue;
      this.worker?.postMessage({ type: "abort", id: out.id });
      this.settle(out, { kind: "timeout" });
      late = true;
    }
    if (late) this.checkAlive();
    if (this.pending.size > 0) this.watch();
  }

  post(call: unknown): void {
    if (this.outbox.length === 0) queueMicrotask(() => this.flush());
    this.outbox.push(call);
  }

  private flush(): void {
    const calls = this.outbox;
    this.outbox = [];
    const worker = this.worker;
    if (worker === undefined) return; // stopped meanwhile: its calls were failed already
    try {
      worker.postMessage(calls.length === 1 ? calls[0] : { type: "calls", calls });
    } catch {
      // One payload that cannot be copied spoils the batch: send them one by one.
      for (const call of calls) this.postOne(worker, call);
    }
  }

  private postOne(worker: Worker, call: unknown): void {
    try {
      worker.postMessage(call);
    } catch (error) {
      const out = this.pending.get((call as { id: number }).id);
      const reason = `its payload cannot be sent (${(error as Error).message})`;
      if (out !== undefined) this.settle(out, { kind: "lost", error: reason });
    }
  }

  /** After a timeout: a worker that cannot even answer a ping is stuck, and is stopped. */
  checkAlive(): void {
    const worker = this.worker;
    if (worker === undefined || this.pinging) return;
    this.pinging = true;
    worker.postMessage({ type: "ping", id: 0 });
    const timer = setTimeout(() => {
      if (this.pinging && this.worker === worker) {
        this.stop("its plugin's thread was blocked past the hook's timeout, so it was stopped");
      }
    }, this.options.stuckGraceMs);
    timer.unref();
  }

  stop(why: string): void {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    this.loaded = false;
    this.pinging = false;
    this.lost(why);
    if (worker !== undefined) void worker.terminate();
  }

  /** Every call waiting on this worker fails with `error`. */
  private lost(error: string): void {
    for (const out of [...this.pending.values()]) this.settle(out, { kind: "lost", error });
  }
}

function answerOutcome(msg: WorkerMessage): CallOutcome {
  const outcome: CallOutcome & { kind: "answer" } = { kind: "answer" };
  if (typeof msg.json === "string") outcome.json = msg.json;
  if (typeof msg.text === "string") outcome.text = msg.text;
  if (typeof msg.error === "string") outcome.error = msg.error;
  return outcome;
}

export class PluginHost implements PluginHooks {
  private readonly threads = new Map<string, PluginThread>();
  private readonly settings: ConstructorParameters<typeof PluginThread>[1];
  private readonly now: () => number;
  private seq = 0;

  constructor(options: PluginHostOptions) {
    this.now = options.now ?? (() => performance.now());
    this.settings = {
      env: options.env,
      loadTimeoutMs: options.loadTimeoutMs ?? 10_000,
      stuckGraceMs: options.stuckGraceMs ?? 500,
      maxRestarts: options.maxRestarts ?? 3,
      maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
      now: this.now,
      ...(options.resourceLimits === undefined ? {} : { resourceLimits: options.resourceLimits }),
      ...(options.children === undefined ? {} : { children: options.children }),
    };
  }

  /** Starts the plugin's worker and runs its `register(api)`. */
  async load(file: string): Promise<PluginLoad> {
    const thread = new PluginThread(file, this.settings);
    this.threads.set(file, thread);
    const load = await thread.start();
    if (load.ok) thread.shapes = load.registrations.map((r) => r.shape);
    else thread.stop("it failed to load");
    return load;
  }

  call(call: PluginCall): Promise<HookRunRecord> {
    const { hook, event, launch } = call;
    const thread = this.threads.get(launch.command);
    const shape = thread?.shapes[launch.registration];
    if (thread === undefined || shape === undefined) {
      return Promise.resolve(notRunRecord(hook, event, "was not run: its plugin is not loaded"));
    }
    const startedAt = this.now();
    // The usual case: the worker is up; nothing to wait for before sending.
    if (thread.loaded && thread.worker !== undefined && call.signal?.aborted !== true) {
      return this.send(thread, call, shape, startedAt);
    }
    return this.callWhenRunning(thread, call, shape, startedAt);
  }

  /** A call to a worker that is starting, stopped, or already aborted. */
  private async callWhenRunning(
    thread: PluginThread,
    call: PluginCall,
    shape: RegistrationShape,
    startedAt: number,
  ): Promise<HookRunRecord> {
    const record = (outcome: CallOutcome): HookRunRecord =>
      pluginRecord(
        {
          hook: call.hook,
          event: call.event,
          shape,
          payload: call.payload,
          startedAt,
          now: this.now(),
          maxOutputBytes: this.settings.maxOutputBytes,
        },
        outcome,
      );
    if (call.signal?.aborted) return record({ kind: "aborted" });
    const restarted = await this.running(thread);
    if (typeof restarted === "string") return record({ kind: "lost", error: restarted });
    return this.send(thread, call, shape, startedAt);
  }

  /** The thread's worker, started again after a stop (bounded), or why it cannot run. */
  private async running(thread: PluginThread): Promise<Worker | string> {
    if (thread.worker === undefined || thread.ready === undefined) {
      if (thread.restarts >= this.settings.maxRestarts) {
        return `its plugin was stopped ${thread.restarts} times this session and is not started again`;
      }
      thread.restarts++;
      const load = await thread.start();
      if (!load.ok) return `its plugin failed to start again: ${load.reason}`;
      const shapes = load.registrations.map((r) => r.shape);
      if (shapes.join() !== thread.shapes.join()) {
        thread.stop("it registered differently");
        return "its plugin registered different hooks when started again";
      }
    }
    const load = await thread.ready;
    if (load === undefined || !load.ok || thread.worker === undefined) {
      return "its plugin is not running";
    }
    return thread.worker;
  }

  private send(
    thread: PluginThread,
    call: PluginCall,
    shape: RegistrationShape,
    startedAt: number,
  ): Promise<HookRunRecord> {
    const worker = thread.worker as Worker;
    const id = ++this.seq;
    return new Promise<HookRunRecord>((resolve) => {
      const out = new OutCall(
        id,
        call.hook,
        call.event,
        shape,
        call.payload,
        startedAt,
        startedAt + call.hook.timeoutMs,
        this.settings.maxOutputBytes,
        call.signal,
        resolve,
      );
      thread.pending.set(id, out);
      thread.watch();
      // Aborted while the worker was being (re)started: the listener would never fire.
      if (call.signal?.aborted) {
        thread.settle(out, { kind: "aborted" });
        return;
      }
      if (call.signal !== undefined) {
        out.onAbort = () => {
          worker.postMessage({ type: "abort", id });
          thread.settle(out, { kind: "aborted" });
        };
        call.signal.addEventListener("abort", out.onAbort, { once: true });
      }
      const argument = handlerArgument(shape, call.event, call.payload);
      thread.post({ type: "call", id, registration: call.launch.registration, argument });
    });
  }

  /** Stops every plugin's worker. */
  async close(): Promise<void> {
    const threads = [...this.threads.values()];
    this.threads.clear();
    await Promise.all(
      threads.map((thread) => {
        const worker = thread.worker;
        thread.stop("the session ended");
        return worker?.terminate();
      }),
    );
  }
}
