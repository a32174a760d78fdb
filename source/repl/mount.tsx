import { openSync } from "node:fs";
import tty from "node:tty";
import { render } from "ink";
import { App } from "./app.js";
import { ReplController } from "./controller.js";
import { colorEnabled } from "./theme.js";
import type { ReplOptions } from "./types.js";

/** Show the cursor, leave bracketed paste, raw mode and the kitty protocol: whatever state we die in. */
const RESTORE = "\u001b[?25h\u001b[?2004l";

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}

function openTerminal(): tty.ReadStream | undefined {
  try {
    const fd = openSync("/dev/tty", "r");
    return new tty.ReadStream(fd);
  } catch {
    return undefined;
  }
}

/**
 * Mounts the ink App and runs the session. Resolves the process exit code.
 * Piped stdin becomes the first prompt and keys are then read from /dev/tty.
 */
export async function mountRepl(options: ReplOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  let stdin: NodeJS.ReadStream = options.stdin ?? process.stdin;
  let initialPrompt = options.initialPrompt;
  let ownTerminal: tty.ReadStream | undefined;

  if (!stdin.isTTY) {
    if (initialPrompt === undefined) initialPrompt = (await readAll(stdin)).trim() || undefined;
    ownTerminal = openTerminal();
    if (!ownTerminal) {
      stderr.write(
        'acai: the interactive session needs a terminal to read keys from. Use `acai -p "prompt"` for a non-interactive run.\n',
      );
      return 2;
    }
    stdin = ownTerminal as unknown as NodeJS.ReadStream;
  }

  const restore = () => {
    if (stdout.isTTY) stdout.write(RESTORE);
    try {
      if (stdin.isTTY) (stdin as tty.ReadStream).setRawMode(false);
    } catch {
      // The terminal is gone; nothing left to restore.
    }
  };

  const controller = new ReplController({
    ...options,
    ...(initialPrompt !== undefined ? { initialPrompt } : {}),
    clearScreen: () => {
      if (stdout.isTTY) stdout.write("\u001b[2J\u001b[3J\u001b[H");
    },
  });

  const onSignal = () => controller.requestExit();
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  process.on("exit", restore);

  const instance = render(
    <App
      controller={controller}
      color={colorEnabled(options.env)}
      {...(options.now ? { now: options.now } : {})}
    />,
    // A terminal is interactive even when CI-looking variables are set.
    {
      stdin,
      stdout,
      stderr,
      exitOnCtrlC: false,
      patchConsole: true,
      interactive: Boolean(stdout.isTTY),
    },
  );

  let code: number;
  try {
    const crashed = instance.waitUntilExit().then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    // The first frame is on screen and raw mode is on (a passive effect) before the
    // controller loads the session modules, which keep the event loop busy for a while.
    await instance.waitUntilRenderFlush().catch(() => undefined); // a crash is reported below
    const outcome = await Promise.race([
      controller.run().then((exitCode) => ({ exitCode })),
      crashed.then((error) => ({ error })),
    ]);
    if ("exitCode" in outcome) {
      code = outcome.exitCode;
      await instance.waitUntilRenderFlush();
      instance.unmount();
    } else {
      // The UI died (a render error): end the session properly, then say what happened.
      controller.requestExit();
      controller.requestExit();
      code = 1;
      stderr.write(
        `acai: the interactive screen failed: ${outcome.error?.message ?? "unknown error"}\n`,
      );
    }
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGHUP", onSignal);
    restore();
    process.off("exit", restore);
    ownTerminal?.destroy();
  }
  return code;
}
