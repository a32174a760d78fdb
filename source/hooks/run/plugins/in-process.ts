/**
 * A user plugin set to `isolation: "none"` (docs/plugins.md "In acai's own
 * thread", decision 0049): plugin-runtime.ts run in acai's own thread behind
 * the same port a worker has, so the plugin's thread (thread.ts) — calls,
 * timeouts, aborts, late registrations, the relay's requests — works as for a
 * worker, without a round trip between threads. Messages are handed over as
 * they are, not copied: the handler gets acai's payload object for the call
 * (as a `query()` callback does), and its answer is JSON text decoded like
 * a hook's stdout.
 *
 * What the thread's port cannot do here: stop a handler that blocks (it
 * blocks acai), drop what the plugin prints, keep secrets out of its
 * environment, contain the processes it starts. Only the user's own plugins
 * can be set so (session.ts): never a project's.
 */
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { pathToFileURL } from "node:url";
import type { PluginRuntime } from "./plugin-runtime.js";

export class InProcessPort extends EventEmitter {
  private runtime: PluginRuntime | undefined;
  private ended = false;

  constructor(file: string, kind: string) {
    super();
    void this.start(file, kind);
  }

  private async start(file: string, kind: string): Promise<void> {
    try {
      const [runtime, relay, a3s] = await Promise.all([
        import("./plugin-runtime.js"),
        import("./relay-shape.js"),
        import("./worker-a3s.js"),
      ]);
      if (this.ended) return;
      this.runtime = runtime.createPluginRuntime({
        // A query string of its own: a plugin started again is imported afresh, as a new worker would.
        url: `${pathToFileURL(file).href}?acai-in-process=${randomUUID()}`,
        file,
        kind,
        relay,
        a3s,
        post: (message) => this.deliver(message),
      });
      await this.runtime.load();
    } catch (error) {
      this.deliver({ type: "broken", reason: `failed to load: ${String(error)}` });
    }
  }

  override on(event: "message" | "error" | "exit", listener: (...args: never[]) => void): this {
    return super.on(event, listener as (...args: unknown[]) => void);
  }

  private deliver(message: unknown): void {
    if (!this.ended) this.emit("message", message);
  }

  postMessage(message: unknown): void {
    if (!this.ended) this.runtime?.receive(message as { type: string; id: number });
  }

  /** Nothing to let go of: the plugin lives in acai's own thread. */
  unref(): void {}

  terminate(): Promise<number> {
    if (!this.ended) {
      this.ended = true;
      queueMicrotask(() => this.emit("exit", 0));
    }
    return Promise.resolve(0);
  }
}
