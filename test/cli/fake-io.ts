import { Readable } from "node:stream";
import type { CliIo } from "../../source/cli/io.js";

export interface FakeIo extends CliIo {
  out: () => string;
  err: () => string;
}

export function fakeIo(argv: string[], overrides: Partial<CliIo> = {}): FakeIo {
  let out = "";
  let err = "";
  return {
    argv: ["node", "acai", ...argv],
    cwd: "/nonexistent-project",
    env: {},
    homeDir: "/nonexistent-home",
    stdout: { write: (chunk: string) => (out += chunk) },
    stderr: { write: (chunk: string) => (err += chunk) },
    stdin: Readable.from([]),
    stdinIsTTY: true,
    stdoutIsTTY: false,
    version: "9.8.7",
    onSignal: () => () => {},
    forceExit: () => {
      throw new Error("forceExit called");
    },
    ...overrides,
    out: () => out,
    err: () => err,
  };
}
