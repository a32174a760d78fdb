/** What the CLI talks to; `main.ts` passes the real process, tests their own. */
export interface Output {
  write(chunk: string): unknown;
}

export interface CliIo {
  argv: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
  homeDir: string;
  stdout: Output;
  stderr: Output;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Whether stdin/stdout are terminals (decides REPL vs. prompt from stdin). */
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  version: string;
  /** Process signals the headless run aborts on. */
  onSignal(signal: CliSignal, handler: () => void): () => void;
  /**
   * Last resort when a run does not wind down after an abort (or on a second
   * Ctrl-C): kills everything acai started, then exits.
   */
  forceExit(code: number): void;
}

/** The signals acai handles (SIGHUP as SIGTERM). */
export type CliSignal = "SIGINT" | "SIGTERM" | "SIGHUP";

/**
 * Reads all of stdin as UTF-8. Aborting rejects with the signal's reason at
 * once and destroys the stream, so a writer that never closes it cannot keep
 * acai alive.
 */
export function readAll(stream: NodeJS.ReadableStream, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const cleanup = (): void => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
      signal?.removeEventListener("abort", onAbort);
    };
    const onData = (chunk: Buffer | string): void => {
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onAbort = (): void => {
      cleanup();
      stream.pause();
      (stream as Partial<{ destroy: () => void }>).destroy?.();
      reject(signal?.reason);
    };
    if (signal?.aborted) return onAbort();
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("error", onError);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
