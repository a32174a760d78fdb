/**
 * Waking a receiver without tight polling: a sender touches
 * `relay/wake/<name>` after storing a message, and the receiver watches that
 * folder (`fs.watch`: inotify on Linux). A slow poll (every 2 s) backs it up,
 * for file systems where watching is unreliable (network mounts).
 */
import { type FSWatcher, mkdirSync, watch, writeFileSync } from "node:fs";
import path from "node:path";

const FALLBACK_POLL_MS = 2000;

export function wakeDir(relayDir: string): string {
  return path.join(relayDir, "wake");
}

/** Tells the agent `name` that something arrived (best effort: its poll catches up anyway). */
export function ring(dir: string, name: string): void {
  try {
    writeFileSync(path.join(dir, name), String(Date.now()), { mode: 0o600 });
  } catch {
    // The receiver's fallback poll finds the message.
  }
}

export interface WakeWatch {
  close(): void;
}

/** Calls `onWake` when `name` is rung, and every `fallbackMs` regardless. */
export function watchWake(
  dir: string,
  name: string,
  onWake: () => void,
  fallbackMs = FALLBACK_POLL_MS,
): WakeWatch {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, (_event, filename) => {
      if (filename === null || filename === name) onWake();
    });
    // A watcher that fails later leaves the poll.
    watcher.on("error", () => watcher?.close());
    // Receiving keeps no process alive by itself: `--listen` holds its own handle.
    watcher.unref();
  } catch {
    watcher = undefined;
  }
  const poll = setInterval(onWake, fallbackMs);
  poll.unref();
  return {
    close() {
      watcher?.close();
      clearInterval(poll);
    },
  };
}
