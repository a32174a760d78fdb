/**
 * One plugin file's worker thread (worker.ts) and the calls waiting on it:
 * starting it and running `register(api)`, posting calls in batches, the
 * sweeper that times calls out, the ping that finds a stuck thread, and
 * terminating it. The session's PluginHost (host.ts) holds one per plugin.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type ResourceLimits, Worker } from "node:worker_threads";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import {
  type LateRegistration,
  type PluginKind,
  type PluginLoad,
  RawRegistrationSchema,
  type RegistrationShape,
} from "../../contract/plugin-registration.js";
import type { HookRunRecord } from "../run-record.js";
import { InProcessPort } from "./in-process.js";
import type { OpenClawSession } from "./openclaw.js";
import { type CallOutcome, pluginRecord, type RecordContext } from "./record.js";

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
  /** What OpenClaw handlers' context carries that no payload does (`agentDir`, `config.model`). */
  openclaw?: OpenClawSession;
  now?: () => number;
  /**
   * What a relay handler's `ctx` asks of the session (`memory.search`, …;
   * plugins/relay-services.ts) and its relay context (recent output and messages).
   */
  relay?: PluginRelay;
}

/** The session's side of agent-relay's HookContext (plugins/relay-context.ts, relay-services.ts). */
export interface PluginRelay {
  /** A `ctx.memory` call: its answer (plain data) or a rejection with what went wrong. */
  request(op: string, args: readonly unknown[]): Promise<unknown>;
  /** agentId, recentOutput, recentMessages, sessionStartTime, lastOutputTime, idleSeconds. */
  context(): Record<string, unknown>;
}

/** The plugin's side of the thread: its worker, or — `isolation: "none"` — in-process.ts's port. */
export interface PluginPort {
  postMessage(message: unknown): void;
  on(event: "message", listener: (message: WorkerMessage) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "exit", listener: () => void): unknown;
  unref(): void;
  terminate(): Promise<number>;
}

export interface PluginChildren {
  bwrap: string;
  prefix: readonly string[];
}

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
  relay?: unknown;
  op?: unknown;
  args?: unknown;
  index?: unknown;
  registration?: unknown;
  problem?: unknown;
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
export class OutCall implements RecordContext {
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
export class PluginThread {
  worker: PluginPort | undefined;
  ready: Promise<PluginLoad> | undefined;
  /** Set once `ready` settled with a running worker: calls skip waiting on it. */
  loaded = false;
  /** Call id → the call: one sweeping timer per thread checks their deadlines, not one timer per call. */
  readonly pending = new Map<number, OutCall>();
  shapes: RegistrationShape[] = [];
  /** Per registration, the OpenClaw hook it is for (`message-received`, …), if it is OpenClaw's. */
  clawNames: (string | undefined)[] = [];
  restarts = 0;
  private sweeper: NodeJS.Timeout | undefined;
  /** Calls not yet posted: those made in the same tick share one message. */
  private outbox: unknown[] = [];
  private pinging = false;
  /** Told of each registration the plugin makes after its `register(api)` returned. */
  onLate: ((late: LateRegistration) => void) | undefined;

  constructor(
    readonly file: string,
    private readonly options: Required<
      Omit<PluginHostOptions, "resourceLimits" | "children" | "relay" | "openclaw">
    > &
      Pick<PluginHostOptions, "resourceLimits" | "children" | "relay" | "openclaw">,
    readonly kind: PluginKind = "plugin",
    /** "none": the plugin runs in acai's own thread (in-process.ts; a user plugin the user set so). */
    readonly isolation: "worker" | "none" = "worker",
  ) {}

  /** Ends a call once: its record, from what happened. */
  settle(out: OutCall, outcome: CallOutcome): void {
    if (!this.pending.delete(out.id)) return;
    if (out.onAbort !== undefined) out.signal?.removeEventListener("abort", out.onAbort);
    out.now = this.options.now();
    out.resolve(pluginRecord(out, outcome));
  }

  start(): Promise<PluginLoad> {
    const worker: PluginPort =
      this.isolation === "none"
        ? new InProcessPort(this.file, this.kind)
        : new Worker(workerUrl(), {
            workerData: { file: this.file, children: this.options.children, kind: this.kind },
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
      worker.on("error", (error: Error) => {
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
        else {
          const relay = msg.relay === undefined ? {} : { relay: msg.relay };
          settle({ ok: true, registrations: parsed.data, problems, ...relay });
        }
        return;
      }
      case "request":
        this.answerRequest(msg);
        return;
      case "broken":
        settle({ ok: false, reason: String(msg.reason ?? "failed to load") });
        return;
      case "late":
      case "late-problem":
        this.onLate?.(lateRegistration(msg));
        return;
    }
  }

  /** A relay handler's `ctx.memory` call, answered by the session (or refused without one). */
  private answerRequest(msg: WorkerMessage): void {
    const worker = this.worker;
    const reply = (answer: { value?: unknown; error?: string }): void => {
      if (this.worker === worker) worker?.postMessage({ type: "reply", id: msg.id, ...answer });
    };
    const relay = this.options.relay;
    if (relay === undefined || typeof msg.op !== "string" || !Array.isArray(msg.args)) {
      reply({ error: "this session has no memory for hooks" });
      return;
    }
    relay.request(msg.op, msg.args).then(
      (value) => reply({ value }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
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

  private postOne(worker: PluginPort, call: unknown): void {
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

function lateRegistration(msg: WorkerMessage): LateRegistration {
  if (msg.type === "late-problem") return { kind: "problem", problem: String(msg.problem) };
  const raw = RawRegistrationSchema.safeParse(msg.registration);
  if (!raw.success || typeof msg.index !== "number" || !Number.isSafeInteger(msg.index)) {
    return { kind: "problem", problem: "reported a registration acai cannot read (ignored)" };
  }
  return { kind: "registration", index: msg.index, raw: raw.data };
}

function answerOutcome(msg: WorkerMessage): CallOutcome {
  const outcome: CallOutcome & { kind: "answer" } = { kind: "answer" };
  if (typeof msg.json === "string") outcome.json = msg.json;
  if (typeof msg.text === "string") outcome.text = msg.text;
  if (typeof msg.error === "string") outcome.error = msg.error;
  return outcome;
}
