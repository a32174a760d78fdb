import { processContainment } from "../process/containment.js";
import { isCliStart, replOptionsFromCli } from "./cli-adapter.js";
import { loadUi } from "./load-ui.js";
import type { ReplOptions, ReplStartOptions } from "./types.js";

export type { ReplOptions } from "./types.js";

/**
 * The interactive session (`acai` without `-p`). Resolves the exit code; the caller exits.
 * Accepts the REPL's injected options, or the CLI's start options (then the real
 * session, trust check and history file are wired here). Only the UI loads before
 * the first frame; the prompt takes input while the session modules load behind it.
 */
export async function startRepl(input: ReplOptions | ReplStartOptions): Promise<number> {
  const { mountRepl } = await loadUi();
  if (!isCliStart(input)) return mountRepl(input);
  const release = exitOnSecondSignal();
  try {
    return await mountRepl(replOptionsFromCli(input));
  } finally {
    release();
  }
}

const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type ReplSignal = keyof typeof SIGNAL_EXIT;

/**
 * Signals from outside (the keyboard's Ctrl-C is a key in raw mode, not a
 * signal). The first asks the session to end — the REPL mounts a handler for
 * SIGTERM and SIGHUP; a SIGINT is passed on as SIGTERM — and session_end hooks
 * run within their budget. A second one stops waiting: everything acai started
 * is killed (containment), then acai exits.
 */
function exitOnSecondSignal(): () => void {
  let received = false;
  let forwarding = false;
  const handlers = (Object.keys(SIGNAL_EXIT) as ReplSignal[]).map((signal) => {
    const handler = (): void => {
      if (forwarding) return;
      if (!received) {
        received = true;
        if (signal === "SIGINT") {
          forwarding = true;
          process.emit("SIGTERM", "SIGTERM");
          forwarding = false;
        }
        return;
      }
      processContainment().sweepAll();
      process.exit(SIGNAL_EXIT[signal]);
    };
    process.on(signal, handler);
    return () => process.off(signal, handler);
  });
  return () => {
    for (const off of handlers) off();
  };
}
