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
import { notRunRecord } from "../run.js";
import type { HookRunRecord } from "../run-record.js";
import { type CallOutcome, pluginRecord } from "./record.js";
import {
  type RawRegistration,
  RawRegistrationSchema,
  type RegistrationShape,
} from "./registration.js";
import { handlerArgument } from "./shapes.js";
import type { PluginCall, PluginHooks } from "./types.js";

export interface PluginHostOptions {
  /** The workers' environment: secrets already removed, the containment marker set. */
  env: Readonly<Record<string, string>>;
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

/** One plugin file's worker and what is waiting on it. */
class PluginThread {
  worker: Worker | undefined;
  ready: Promise<PluginLoad> | undefined;
  readonly pending = new Map<number, (outcome: CallOutcome) => void>();
  shapes: RegistrationShape[] = [];
  restarts = 0;
  /** Call id → when it times out: one sweeping timer per thread, not one timer per call. */
  readonly deadlines = new Map<number, { at: number; onTimeout: () => void }>();
  private sweeper: NodeJS.Timeout | undefined;
  /** Calls not yet posted: those made in the same tick share one message. */
  private outbox: unknown[] = [];
  private pinging = false;

  constructor(
    readonly file: string,
    private readonly options: Required<Omit<PluginHostOptions, "resourceLimits" | "now">> &
      Pick<PluginHostOptions, "resourceLimits">,
  ) {}

  start(): Promise<PluginLoad> {
    const worker = new Worker(workerUrl(), {
      workerData: { file: this.file },
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
          if (typeof one?.id === "number") {
            this.pending.get(one.id)?.({ kind: "answer", ...answerFields(one) });
          }
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

  watch(id: number, at: number, onTimeout: () => void): void {
    this.deadlines.set(id, { at, onTimeout });
    // Ref'd: acai stays up while a call is out.
    this.sweeper ??= setTimeout(() => this.sweep(), SWEEP_MS);
  }

  private sweep(): void {
    this.sweeper = undefined;
    const now = performance.now();
    for (const [id, deadline] of this.deadlines) {
      if (deadline.at <= now) {
        this.deadlines.delete(id);
        deadline.onTimeout();
      }
    }
    if (this.deadlines.size > 0) this.sweeper = setTimeout(() => this.sweep(), SWEEP_MS);
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
      const id = (call as { id: number }).id;
      const reason = `its payload cannot be sent (${(error as Error).message})`;
      this.pending.get(id)?.({ kind: "lost", error: reason });
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
    this.pinging = false;
    this.lost(why);
    if (worker !== undefined) void worker.terminate();
  }

  /** Every call waiting on this worker fails with `error`. */
  private lost(error: string): void {
    for (const fail of [...this.pending.values()]) fail({ kind: "lost", error });
    this.pending.clear();
  }
}

function answerFields(msg: WorkerMessage): { json?: string; text?: string; error?: string } {
  return {
    ...(typeof msg.json === "string" ? { json: msg.json } : {}),
    ...(typeof msg.text === "string" ? { text: msg.text } : {}),
    ...(typeof msg.error === "string" ? { error: msg.error } : {}),
  };
}

export class PluginHost implements PluginHooks {
  private readonly threads = new Map<string, PluginThread>();
  private readonly settings: ConstructorParameters<typeof PluginThread>[1];
  private readonly now: () => number;
  private seq = 0;

  constructor(options: PluginHostOptions) {
    this.settings = {
      env: options.env,
      loadTimeoutMs: options.loadTimeoutMs ?? 10_000,
      stuckGraceMs: options.stuckGraceMs ?? 500,
      maxRestarts: options.maxRestarts ?? 3,
      maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
      ...(options.resourceLimits === undefined ? {} : { resourceLimits: options.resourceLimits }),
    };
    this.now = options.now ?? (() => performance.now());
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

  async call(call: PluginCall): Promise<HookRunRecord> {
    const { hook, event, launch } = call;
    const thread = this.threads.get(launch.command);
    const shape = thread?.shapes[launch.registration];
    if (thread === undefined || shape === undefined) {
      return notRunRecord(hook, event, "was not run: its plugin is not loaded");
    }
    const startedAt = this.now();
    const ctx = {
      hook,
      event,
      shape,
      payload: call.payload,
      startedAt,
      maxOutputBytes: this.settings.maxOutputBytes,
    };
    const finish = (outcome: CallOutcome): HookRunRecord =>
      pluginRecord({ ...ctx, now: this.now() }, outcome);
    if (call.signal?.aborted) return finish({ kind: "aborted" });
    const restarted = await this.running(thread);
    if (typeof restarted === "string") return finish({ kind: "lost", error: restarted });
    return this.send(thread, call, shape, finish);
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
    finish: (outcome: CallOutcome) => HookRunRecord,
  ): Promise<HookRunRecord> {
    const worker = thread.worker as Worker;
    const id = ++this.seq;
    return new Promise<HookRunRecord>((resolve) => {
      const onAbort = (): void => {
        worker.postMessage({ type: "abort", id });
        done({ kind: "aborted" });
      };
      const done = (outcome: CallOutcome): void => {
        if (!thread.pending.delete(id)) return;
        thread.deadlines.delete(id);
        call.signal?.removeEventListener("abort", onAbort);
        resolve(finish(outcome));
      };
      thread.pending.set(id, done);
      thread.watch(id, this.now() + call.hook.timeoutMs, () => {
        worker.postMessage({ type: "abort", id });
        done({ kind: "timeout" });
        thread.checkAlive();
      });
      // Aborted while the worker was being (re)started: the listener would never fire.
      if (call.signal?.aborted) {
        done({ kind: "aborted" });
        return;
      }
      call.signal?.addEventListener("abort", onAbort, { once: true });
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
