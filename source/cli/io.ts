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
  onSignal(signal: "SIGINT" | "SIGTERM", handler: () => void): () => void;
  /** Last resort when a run does not wind down after an abort (or on a second Ctrl-C). */
  forceExit(code: number): void;
}

/** Reads all of stdin as UTF-8. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks).toString("utf8");
}
