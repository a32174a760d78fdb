/**
 * A terminal for REPL end-to-end tests: tmux on its own socket, keys sent
 * with send-keys, the screen read with capture-pane; `replCommand` is the
 * shell command that runs the built acai REPL with a clean environment.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { AcaiDirs } from "./run-acai.js";
import { CLI_PATH } from "./run-acai.js";

const TMUX = "/usr/bin/tmux";

/** Why REPL terminal tests cannot run here ("" when they can). */
export const tmuxSkipReason = !existsSync(TMUX)
  ? "tmux is not installed"
  : !existsSync(CLI_PATH)
    ? "dist/ is not built"
    : "";

export class Term {
  readonly socket = `acai-term-${process.pid}-${Date.now()}-${String(Math.random()).slice(2, 8)}`;
  /** The terminal's size: some screens are checked at 100x30. */
  constructor(
    private readonly size: { columns: number; rows: number } = { columns: 120, rows: 40 },
  ) {}
  tmux(...args: string[]): string {
    return execFileSync(TMUX, ["-L", this.socket, ...args], { encoding: "utf8" });
  }
  start(command: string, cwd: string): void {
    const { columns, rows } = this.size;
    this.tmux(
      "new-session",
      "-d",
      "-x",
      `${columns}`,
      "-y",
      `${rows}`,
      "-s",
      "t",
      "-c",
      cwd,
      command,
    );
  }
  /** Keys by tmux name (Enter, Escape, C-c…). */
  keys(...keys: string[]): void {
    this.tmux("send-keys", "-t", "t", ...keys);
  }
  /** Text typed as is. */
  text(text: string): void {
    this.tmux("send-keys", "-t", "t", "-l", text);
  }
  line(text: string): void {
    this.text(text);
    this.keys("Enter");
  }
  screen(): string {
    try {
      return this.tmux("capture-pane", "-p", "-t", "t", "-S", "-300");
    } catch {
      return "";
    }
  }
  async see(what: string | RegExp, timeoutMs = 15_000): Promise<string> {
    const start = Date.now();
    for (;;) {
      const screen = this.screen();
      if (typeof what === "string" ? screen.includes(what) : what.test(screen)) return screen;
      if (Date.now() - start > timeoutMs) {
        throw new Error(`timed out waiting for ${String(what)}; screen:\n${screen}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  kill(): void {
    spawnSync(TMUX, ["-L", this.socket, "kill-server"]);
  }
}

export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `sh -c` text running the REPL in `dirs` with only the variables it needs, then saying its exit code. */
export function replCommand(
  dirs: AcaiDirs,
  args: string[],
  extraEnv: Record<string, string> = {},
): string {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dirs.home,
    ACAI_HOME: dirs.acaiHome,
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    NO_COLOR: "1",
    OPENAI_API_KEY: "test-key",
    ...extraEnv,
  };
  const acai = [
    "env",
    "-i",
    ...Object.entries(env).map(([k, v]) => shellQuote(`${k}=${v}`)),
    shellQuote(process.execPath),
    shellQuote(CLI_PATH),
    ...args.map(shellQuote),
  ].join(" ");
  return `sh -c ${shellQuote(`${acai}; echo "acai exited $?"; sleep 60`)}`;
}
