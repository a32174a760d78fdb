import { openSync } from "node:fs";
import tty from "node:tty";
import { type Instance, render } from "ink";
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

/** Where keys come from: stdin when it is a terminal, else /dev/tty (piped stdin is the first prompt). */
async function keySource(
  options: ReplOptions,
  stderr: NodeJS.WriteStream,
): Promise<
  | { stdin: NodeJS.ReadStream; initialPrompt: string | undefined; ownTerminal?: tty.ReadStream }
  | undefined
> {
  const stdin: NodeJS.ReadStream = options.stdin ?? process.stdin;
  let initialPrompt = options.initialPrompt;
  if (stdin.isTTY) return { stdin, initialPrompt };
  if (initialPrompt === undefined) initialPrompt = (await readAll(stdin)).trim() || undefined;
  const ownTerminal = openTerminal();
  if (!ownTerminal) {
    stderr.write(
      'acai: the interactive session needs a terminal to read keys from. Use `acai -p "prompt"` for a non-interactive run.\n',
    );
    return undefined;
  }
  return { stdin: ownTerminal as unknown as NodeJS.ReadStream, initialPrompt, ownTerminal };
}

/**
 * Mounts the ink App and runs the session. Resolves the process exit code.
 * Piped stdin becomes the first prompt and keys are then read from /dev/tty.
 */
export async function mountRepl(options: ReplOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const keys = await keySource(options, stderr);
  if (keys === undefined) return 2;
  const { stdin, initialPrompt, ownTerminal } = keys;

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

  try {
    return await runMounted(instance, controller, stderr);
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGHUP", onSignal);
    restore();
    process.off("exit", restore);
    ownTerminal?.destroy();
  }
}

/** Runs the session on the mounted screen; a screen that dies ends the session properly first. */
async function runMounted(
  instance: Instance,
  controller: ReplController,
  stderr: NodeJS.WriteStream,
): Promise<number> {
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
    await instance.waitUntilRenderFlush();
    instance.unmount();
    return outcome.exitCode;
  }
  // The UI died (a render error): end the session properly, then say what happened.
  controller.requestExit();
  controller.requestExit();
  stderr.write(
    `acai: the interactive screen failed: ${outcome.error?.message ?? "unknown error"}\n`,
  );
  return 1;
}
