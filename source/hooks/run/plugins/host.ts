/**
 * The session's plugins (hooks.md §6.3): one worker thread per plugin file
 * (worker.ts), so a handler that blocks its event loop blocks only its own
 * thread. A handler that does not answer in its `timeoutMs` is abandoned
 * (its AbortSignal fires); if the worker then does not answer a ping within
 * `stuckGraceMs`, its thread is blocked: the worker is terminated (V8 stops
 * even a `while (true)`) and started again, re-registered, on the plugin's
 * next call — at most `maxRestarts` times a session.
 */
import { openClawName } from "../../contract/openclaw.js";
import type {
  LateRegistration,
  PluginKind,
  PluginLoad,
  PluginLoader,
  RawRegistration,
  RegistrationShape,
} from "../../contract/plugin-registration.js";
import { notRunRecord } from "../run.js";
import type { HookRunRecord } from "../run-record.js";
import { type CallOutcome, pluginRecord } from "./record.js";
import { handlerArgument, handlerSees } from "./shapes.js";
import { OutCall, type PluginHostOptions, type PluginPort, PluginThread } from "./thread.js";
import type { PluginCall, PluginHooks } from "./types.js";

export interface SessionPluginHostOptions extends PluginHostOptions {
  /**
   * Plugin files that run in acai's own thread (`isolation: "none"`,
   * in-process.ts): the user's own, named in the user's settings (session.ts).
   */
  inProcess?: ReadonlySet<string>;
}

export class PluginHost implements PluginHooks, PluginLoader {
  private readonly threads = new Map<string, PluginThread>();
  private readonly inProcess: ReadonlySet<string>;
  private readonly settings: ConstructorParameters<typeof PluginThread>[1];
  private readonly now: () => number;
  private seq = 0;

  constructor(options: SessionPluginHostOptions) {
    this.now = options.now ?? (() => performance.now());
    this.inProcess = options.inProcess ?? new Set();
    this.settings = {
      env: options.env,
      loadTimeoutMs: options.loadTimeoutMs ?? 10_000,
      stuckGraceMs: options.stuckGraceMs ?? 500,
      maxRestarts: options.maxRestarts ?? 3,
      maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
      now: this.now,
      ...(options.resourceLimits === undefined ? {} : { resourceLimits: options.resourceLimits }),
      ...(options.children === undefined ? {} : { children: options.children }),
      ...(options.relay === undefined ? {} : { relay: options.relay }),

      ...(options.openclaw === undefined ? {} : { openclaw: options.openclaw }),
    };
  }

  /**
   * Starts the plugin's worker and runs its `register(api)` (or reads its
   * relay.config); `late` is told of each registration it makes afterwards
   * (its index is the one to call).
   */
  async load(
    file: string,
    kind: PluginKind = "plugin",
    late?: (late: LateRegistration) => void,
  ): Promise<PluginLoad> {
    const isolation = kind === "plugin" && this.inProcess.has(file) ? "none" : "worker";
    const thread = new PluginThread(file, this.settings, kind, isolation);
    this.threads.set(file, thread);
    thread.onLate = (registration) => this.lateOne(thread, registration, late);
    const load = await thread.start();
    if (load.ok) {
      thread.shapes = load.registrations.map((r) => r.shape);
      thread.clawNames = load.registrations.map(clawName);
    } else thread.stop("it failed to load");
    return load;
  }

  /**
   * A late registration: known from now on (its shape, for calls). One the
   * plugin makes again after a restart, at an index already known, is the same
   * hook and is not added twice.
   */
  private lateOne(
    thread: PluginThread,
    registration: LateRegistration,
    late: ((late: LateRegistration) => void) | undefined,
  ): void {
    if (registration.kind === "registration") {
      const { index, raw } = registration;
      if (index < thread.shapes.length) return;
      if (index !== thread.shapes.length) {
        late?.({ kind: "problem", problem: "registered a hook out of order (ignored)" });
        return;
      }
      thread.shapes.push(raw.shape);
      thread.clawNames.push(clawName(raw));
    }
    late?.(registration);
  }

  call(call: PluginCall): Promise<HookRunRecord> {
    const { hook, event, launch } = call;
    const thread = this.threads.get(launch.command);
    const shape = thread?.shapes[launch.registration];
    if (thread === undefined || shape === undefined) {
      return Promise.resolve(notRunRecord(hook, event, "was not run: its plugin is not loaded"));
    }
    const startedAt = this.now();
    if (!handlerSees(shape, event, call.payload)) return Promise.resolve(this.unseen(call, shape));
    // The usual case: the worker is up; nothing to wait for before sending.
    if (thread.loaded && thread.worker !== undefined && call.signal?.aborted !== true) {
      return this.send(thread, call, shape, startedAt);
    }
    return this.callWhenRunning(thread, call, shape, startedAt);
  }

  /** A call its handler does not take (A3S's PostToolUse of a call that never ran): continue, uncalled. */
  private unseen(call: PluginCall, shape: RegistrationShape): HookRunRecord {
    const now = this.now();
    const context = { hook: call.hook, event: call.event, shape, payload: call.payload };
    const limits = { startedAt: now, now, maxOutputBytes: this.settings.maxOutputBytes };
    return pluginRecord({ ...context, ...limits }, { kind: "answer" });
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
    // The handler's timeout runs from here: starting its worker again is bounded on its own
    // (`loadTimeoutMs`), and a slow start must not make its first call time out.
    return this.send(thread, call, shape, startedAt, this.now());
  }

  /** The thread's worker, started again after a stop (bounded), or why it cannot run. */
  private async running(thread: PluginThread): Promise<PluginPort | string> {
    if (thread.worker === undefined || thread.ready === undefined) {
      if (thread.restarts >= this.settings.maxRestarts) {
        return `its plugin was stopped ${thread.restarts} times this session and is not started again`;
      }
      thread.restarts++;
      const load = await thread.start();
      if (!load.ok) return `its plugin failed to start again: ${load.reason}`;
      const shapes = load.registrations.map((r) => r.shape);
      // Late registrations come after these; the plugin makes them again when its code runs again.
      if (shapes.join() !== thread.shapes.slice(0, shapes.length).join()) {
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
    sentAt: number = startedAt,
  ): Promise<HookRunRecord> {
    const worker = thread.worker as PluginPort;
    const id = ++this.seq;
    return new Promise<HookRunRecord>((resolve) => {
      const out = new OutCall(
        id,
        call.hook,
        call.event,
        shape,
        call.payload,
        startedAt,
        sentAt + call.hook.timeoutMs,
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
      const argument = handlerArgument(
        shape,
        call.event,
        call.payload,
        this.settings.relay,
        shape === "openclaw"
          ? { name: thread.clawNames[call.launch.registration], session: this.settings.openclaw }
          : undefined,
      );
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

/** The OpenClaw hook a registration is for (its context's `direction` depends on it). */
function clawName(raw: RawRegistration): string | undefined {
  return raw.shape === "openclaw" ? openClawName(raw.events[0]) : undefined;
}
