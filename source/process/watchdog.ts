/**
 * The watchdog: a small process that outlives acai by design, to clean up
 * after it when acai cannot (SIGKILL, a crash in native code, an unhandled
 * fatal signal). It is started once, lazily, at acai's first spawn; it does
 * NOT carry acai's marker, runs detached in its own session (no terminal
 * signal reaches it), and its stdin is a pipe from acai. When acai dies, in
 * whatever way, the kernel closes acai's end, the watchdog reads EOF, sweeps
 * /proc for the marker (as sweep.ts does) and exits. On a normal exit acai
 * has swept already and the watchdog finds nothing.
 *
 * It is the Python script where /usr/bin/python3 is (decision 0074), else
 * the Node one (watchdog-scripts.ts). A Python watchdog that cannot start or
 * ends while acai lives is replaced by a Node one, once.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { SYSTEM_PYTHON } from "./spawner-kind.js";
import { NODE_WATCHDOG_SCRIPT, PYTHON_WATCHDOG_SCRIPT } from "./watchdog-scripts.js";

export interface WatchdogOptions {
  /** The Node binary (acai's own `process.execPath`). */
  execPath: string;
  /** The environ entry to sweep (`ACAI_RUN_<id>=`). */
  entry: string;
  procDir: string;
  /** The Python of the Python watchdog (default /usr/bin/python3, never looked up on PATH); `false`: Node only. */
  python?: string | false;
}

/** The running watchdog (which one may change when a Python one is replaced). */
export interface Watchdog {
  pid(): number | undefined;
  kind(): "python" | "node";
  /** The current process (tests: its exit). */
  child(): ChildProcess;
  /** Closes acai's end of its pipe, as acai's death does: it sweeps and exits, and none replaces it. */
  close(): void;
}

/**
 * Starts the watchdog. It never keeps acai's event loop alive; its pid is
 * there so that acai's own sweep can leave it alone. Undefined when no
 * watchdog could be started (containment at acai's own exits still holds).
 */
export function startWatchdog(options: WatchdogOptions): Watchdog | undefined {
  const args = [options.entry, options.procDir];
  const node = (): Running | undefined => {
    const child = detachedChild(options.execPath, ["-e", NODE_WATCHDOG_SCRIPT, ...args]);
    return child === undefined ? undefined : { child, kind: "node" };
  };
  const python = options.python === undefined ? SYSTEM_PYTHON : options.python;
  let current: Running | undefined;
  let closed = false;
  if (python !== false && existsSync(python)) {
    const child = detachedChild(python, ["-I", "-S", "-c", PYTHON_WATCHDOG_SCRIPT, ...args]);
    if (child !== undefined) {
      current = { child, kind: "python" };
      // It never ends while acai holds its pipe unless it could not run: the Node one takes over.
      const replace = (): void => {
        if (current?.child !== child || closed) return;
        current = node() ?? current;
      };
      child.once("error", replace);
      child.once("exit", replace);
    }
  }
  current ??= node();
  if (current === undefined) return undefined;
  const running = (): Running => current as Running;
  return {
    pid: () => running().child.pid,
    kind: () => running().kind,
    child: () => running().child,
    close: () => {
      closed = true;
      running().child.stdin?.destroy();
    },
  };
}

interface Running {
  child: ChildProcess;
  kind: "python" | "node";
}

function detachedChild(command: string, args: string[]): ChildProcess | undefined {
  let child: ChildProcess;
  try {
    child = spawn(command, args, {
      // Nothing of acai's environment: above all not the marker it sweeps for.
      env: {},
      cwd: "/",
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
  } catch {
    return undefined;
  }
  child.on("error", () => {});
  child.stdin?.on("error", () => {});
  child.unref();
  // The pipe must not keep acai alive either (a net.Socket at runtime).
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return child;
}
