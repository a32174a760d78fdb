/**
 * The idle timer (agent-relay's onIdle): calls `onIdle(idleSeconds)` once
 * `idleMs` pass without `activity()`, then once more per further `idleMs` of
 * silence (each with the seconds since the last activity), until activity or
 * `stop()`. The interceptor feeds it every agent event; a listening agent can
 * feed it its own activity. The timer never keeps the process alive (unref).
 * Time and timers come through the options, so tests need no real waiting.
 */

export const DEFAULT_IDLE_MS = 30_000;

export interface TimerFunctions {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface IdleTimerOptions {
  /** Silence before the first call, and between calls while it lasts. */
  idleMs: number;
  onIdle: (idleSeconds: number) => void;
  now?: () => number;
  timers?: TimerFunctions;
}

export interface IdleTimer {
  /** The agent did something: the idle period starts over. */
  activity(): void;
  /** No more calls. */
  stop(): void;
}

const realTimers: TimerFunctions = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export function createIdleTimer(options: IdleTimerOptions): IdleTimer {
  const now = options.now ?? Date.now;
  const timers = options.timers ?? realTimers;
  const idleMs = Math.max(1, options.idleMs);
  let last = now();
  let handle: unknown;
  let stopped = false;
  const arm = (): void => {
    if (stopped) return;
    handle = timers.setTimeout(fire, idleMs);
  };
  const fire = (): void => {
    handle = undefined;
    if (stopped) return;
    arm();
    options.onIdle(Math.max(0, Math.round((now() - last) / 1000)));
  };
  arm();
  return {
    activity() {
      if (stopped) return;
      last = now();
      if (handle !== undefined) timers.clearTimeout(handle);
      arm();
    },
    stop() {
      stopped = true;
      if (handle !== undefined) timers.clearTimeout(handle);
      handle = undefined;
    },
  };
}
