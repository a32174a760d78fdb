/**
 * Runs the BUILT acai CLI as a subprocess, the way a user does — the bundle
 * the `acai` command runs (`dist/bundle/main.js`, decision 0035) — with its
 * own temp ACAI_HOME, HOME and project folder, an environment without real
 * keys, optional stdin, and a timeout that kills it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CLI_PATH = path.join(REPO_ROOT, "dist", "bundle", "main.js");

export interface AcaiDirs {
  root: string;
  /** The project folder acai runs in. */
  cwd: string;
  acaiHome: string;
  /** HOME of the child, so nothing of the real user's home is read. */
  home: string;
  cleanup(): Promise<void>;
}

export async function makeAcaiDirs(prefix = "acai-e2e-"): Promise<AcaiDirs> {
  const root = await mkdtemp(path.join(os.tmpdir(), prefix));
  const dirs = {
    root,
    cwd: path.join(root, "project"),
    acaiHome: path.join(root, "acai-home"),
    home: path.join(root, "home"),
  };
  await Promise.all([mkdir(dirs.cwd), mkdir(dirs.acaiHome), mkdir(dirs.home)]);
  // A just-killed acai may still be writing (its compile cache, a transcript line) while
  // the folder goes: rm retries on ENOTEMPTY/EBUSY instead of failing the test.
  return {
    ...dirs,
    cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }),
  };
}

export interface RunAcaiOptions {
  args: readonly string[];
  dirs: AcaiDirs;
  /** OPENAI_BASE_URL for the child (e.g. the fake server's url). */
  baseUrl?: string;
  /** Extra variables (override the defaults; `undefined` removes one). */
  env?: Record<string, string | undefined>;
  /** Written to stdin, then closed. Without it stdin is closed at once (like `< /dev/null`). */
  stdin?: string;
  /** Start acai under `ulimit -n <fdLimit>` (through /bin/sh, which then execs node). */
  fdLimit?: number;
  /** Kill (SIGKILL) after this long; default 20 s. */
  timeoutMs?: number;
}

export interface AcaiResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

export interface AcaiProcess {
  child: ChildProcess;
  result: Promise<AcaiResult>;
}

function assertBuilt(): void {
  if (!existsSync(CLI_PATH)) {
    throw new Error(
      `${path.relative(REPO_ROOT, CLI_PATH)} is missing: build first (npm run build; npm test builds for you).`,
    );
  }
}

export function childEnv(options: RunAcaiOptions): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: options.dirs.home,
    ACAI_HOME: options.dirs.acaiHome,
    LANG: "C.UTF-8",
    CI: "true",
    NO_COLOR: "1",
    // One V8 code cache for the whole suite (acai would otherwise keep it in each temp ACAI_HOME).
    NODE_COMPILE_CACHE: path.join(os.tmpdir(), "acai-test-node-compile-cache"),
    ...(options.baseUrl ? { OPENAI_BASE_URL: options.baseUrl, OPENAI_API_KEY: "test-key" } : {}),
    ...options.env,
  };
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

export function startAcai(options: RunAcaiOptions): AcaiProcess {
  assertBuilt();
  const started = Date.now();
  const [command, args] =
    options.fdLimit === undefined
      ? [process.execPath, [CLI_PATH, ...options.args]]
      : [
          "/bin/sh",
          [
            "-c",
            `ulimit -n ${options.fdLimit} && exec "$@"`,
            "sh",
            process.execPath,
            CLI_PATH,
            ...options.args,
          ],
        ];
  const child = spawn(command, args, {
    cwd: options.dirs.cwd,
    env: childEnv(options),
    stdio: ["pipe", "pipe", "pipe"],
  });
  const result = new Promise<AcaiResult>((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 20_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ exitCode, signal, stdout, stderr, timedOut, durationMs: Date.now() - started });
    });
  });
  child.stdin.on("error", () => {});
  child.stdin.end(options.stdin ?? "");
  return { child, result };
}

export function runAcai(options: RunAcaiOptions): Promise<AcaiResult> {
  return startAcai(options).result;
}
