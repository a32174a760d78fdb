/**
 * Renders an ink tree into fake streams for tests: `render(tree).lastFrame()`,
 * `stdin.write(keys)`, `cleanup()` — what ink-testing-library offers, with one
 * difference that matters: the fake stdout reports its rows as well as its
 * columns, as a terminal does. ink-testing-library's reports only columns, and
 * ink then asks the `terminal-size` package on every render, which runs
 * `tput cols` and `tput lines` as child processes (spawnSync). That cost the
 * REPL's tests seconds alone and over a minute in a loaded CI run (one
 * streamed-Markdown test: 2.8 s alone, 64.7 s in the suite). Written here
 * because the package's streams are not exported (4.0.0, its latest).
 */
import { EventEmitter } from "node:events";
import { type Instance, render as inkRender } from "ink";
import type { ReactElement } from "react";
import { FakeStdin } from "./fake-stdin.js";

/** A terminal's size: ink reads both, so it never asks `tput`. */
const COLUMNS = 100;
const ROWS = 24;

class FakeStdout extends EventEmitter {
  readonly frames: string[] = [];
  readonly columns = COLUMNS;
  readonly rows = ROWS;
  write = (frame: string): boolean => {
    this.frames.push(frame);
    return true;
  };
  lastFrame = (): string | undefined => this.frames.at(-1);
}

export interface Rendered {
  lastFrame: () => string | undefined;
  frames: string[];
  stdin: FakeStdin;
  stdout: FakeStdout;
  stderr: FakeStdout;
  rerender: Instance["rerender"];
  unmount: Instance["unmount"];
}

const mounted: Instance[] = [];

export function render(tree: ReactElement): Rendered {
  const stdout = new FakeStdout();
  const stderr = new FakeStdout();
  const stdin = new FakeStdin();
  const instance = inkRender(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  mounted.push(instance);
  return {
    lastFrame: stdout.lastFrame,
    frames: stdout.frames,
    stdin,
    stdout,
    stderr,
    rerender: instance.rerender,
    unmount: instance.unmount,
  };
}

/** Unmounts every tree rendered so far. */
export function cleanup(): void {
  for (const instance of mounted.splice(0)) {
    instance.unmount();
    instance.cleanup();
  }
}
