/**
 * acai's side of one sandbox spawner (the script is spawner-script.ts;
 * decision 0013): bwrap started once with the policy's options, containment
 * added, running acai's own Node with the spawner script; a unix socket
 * served by acai in a private temp folder, bind-mounted read-only into the
 * sandbox (the spawner connects out; nothing in the sandbox can replace the
 * socket); JSON lines to the spawner's stdin and from its stdout.
 *
 * One run: acai sends `spawn` with a fresh random token; the spawner opens
 * one connection per stream, each starting with "<token> <stream>\n", forks
 * the child with them as its stdio and answers `started` (or `error`); the
 * run is handed to the runner once both arrived. Exit code and signal are the
 * child's own. Kills go to the child's process group inside the namespace.
 * If the spawner dies, its runs end as killed and say why (`lost`), and the
 * next run starts a new one (sandbox-launch.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bwrapArgv } from "./bwrap.js";
import type { ChildHandle, SpawnOutcome } from "./handle.js";
import { describeSpawnError, type SpawnTarget } from "./spawn.js";
import { SPAWNER_SCRIPT } from "./spawner-script.js";
import { newToken, readHeader, SPAWNER_STREAMS, type StreamName } from "./spawner-wire.js";
import type { SandboxLaunch } from "./types.js";

/** A sandboxed child's stdin: a stream acai writes, none, or a text written for it (one-shot runs). */
export type SandboxStdin = "pipe" | "ignore" | { text: string };

export interface SpawnerOptions {
  bwrap: string;
  /** acai's own Node (`process.execPath`), bind-mounted read-only into the sandbox. */
  execPath: string;
  launch: SandboxLaunch;
  /** The spawner's own environment (acai's containment marker: its exit sweep reaches it). */
  env: Readonly<Record<string, string>>;
  /** Parent of the private socket folder (default: the OS temp folder). */
  tmpDir?: string;
  /** How long the spawner may take to say it is ready (default 10 s). */
  readyTimeoutMs?: number;
}

class RemoteChild extends EventEmitter implements ChildHandle {
  constructor(
    readonly pid: number,
    readonly stdin: Socket | null,
    readonly stdout: Socket,
    readonly stderr: Socket,
  ) {
    super();
  }
}

interface Pending {
  id: number;
  token: string;
  target: SpawnTarget;
  withStdin: boolean;
  streams: Partial<Record<StreamName, Socket>>;
  pid?: number;
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  child?: RemoteChild;
  lost?: string;
  reported?: boolean;
  resolve: (outcome: SpawnOutcome) => void;
}

interface ControlLine {
  ready?: boolean;
  id?: number;
  token?: string;
  started?: number;
  error?: string;
  code?: string | number | null;
  exit?: boolean;
  signal?: NodeJS.Signals | null;
}

export class Spawner {
  private readonly runs = new Map<number, Pending>();
  private readonly byToken = new Map<string, Pending>();
  private nextId = 0;
  private alive = true;
  private onReady: ((ok: boolean) => void) | undefined;

  private constructor(
    private readonly process: ChildProcess,
    private readonly server: Server,
    private readonly dir: string,
    private readonly name: string,
  ) {}

  /** Starts a spawner for `options.launch`; resolves once it is ready, or with why it is not. */
  static async start(options: SpawnerOptions): Promise<Spawner | { failure: string }> {
    const dir = mkdtempSync(join(options.tmpDir ?? tmpdir(), "acai-spawner-"));
    const socketPath = join(dir, "s");
    const server = createServer({ allowHalfOpen: false });
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(socketPath, () => resolve());
      });
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      return { failure: `cannot listen on ${socketPath}: ${(error as Error).message}` };
    }
    server.unref();
    const args = bwrapArgv(
      options.launch.bwrapArgs,
      options.execPath,
      ["-e", SPAWNER_SCRIPT, socketPath],
      ["--ro-bind", dir, dir, "--ro-bind-try", options.execPath, options.execPath],
    );
    let child: ChildProcess;
    try {
      child = spawn(options.bwrap, args, {
        env: options.env,
        cwd: "/",
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (error) {
      server.close();
      rmSync(dir, { recursive: true, force: true });
      return { failure: (error as Error).message };
    }
    const spawner = new Spawner(child, server, dir, options.launch.name);
    server.on("connection", (conn) => spawner.accept(conn));
    return spawner.waitReady(options.readyTimeoutMs ?? 10_000);
  }

  get running(): boolean {
    return this.alive;
  }

  private waitReady(timeoutMs: number): Promise<Spawner | { failure: string }> {
    const child = this.process;
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString("utf8");
    });
    child.stderr?.on("error", () => {});
    child.stdin?.on("error", () => {});
    child.on("error", () => this.died("it could not start"));
    child.on("exit", () => this.died("it exited"));
    child.stdout?.setEncoding("utf8");
    let buffered = "";
    child.stdout?.on("data", (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        this.onControl(line);
      }
    });
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.onReady?.(false), timeoutMs);
      this.onReady = (ok) => {
        this.onReady = undefined;
        clearTimeout(timer);
        if (ok) {
          this.idle();
          resolve(this);
          return;
        }
        this.stop();
        const said = stderr.trim().split("\n")[0];
        resolve({ failure: said ? `bwrap said: ${said}` : "it did not get ready" });
      };
    });
  }

  /** Starts `target` (its environment complete) in the sandbox; `{text}`: the spawner writes its stdin. */
  run(target: SpawnTarget, stdin: SandboxStdin): Promise<SpawnOutcome> {
    const withStdin = stdin === "pipe";
    if (!this.alive) return Promise.resolve({ spawnError: this.lostMessage() });
    const id = ++this.nextId;
    const token = newToken();
    return new Promise((resolve) => {
      const pending: Pending = { id, token, target, withStdin, streams: {}, resolve };
      this.runs.set(id, pending);
      this.byToken.set(token, pending);
      this.busy();
      this.send({
        op: "spawn",
        id,
        token,
        command: target.command,
        args: target.args ?? [],
        cwd: target.cwd,
        env: target.env,
        ...(typeof stdin === "object"
          ? { stdin: "text", text: stdin.text }
          : { stdin: withStdin ? "socket" : "none" }),
      });
    });
  }

  /** Closes its stdin: it kills what still runs and exits, and bwrap's namespace with it. */
  stop(): void {
    this.process.stdin?.destroy();
    this.died("it was stopped");
  }

  private send(message: object): void {
    const stdin = this.process.stdin;
    if (this.alive && stdin?.writable) stdin.write(`${JSON.stringify(message)}\n`);
  }

  private busy(): void {
    (this.process.stdout as unknown as { ref?: () => void } | null)?.ref?.();
    this.process.ref();
  }

  private idle(): void {
    if (this.runs.size > 0) return;
    (this.process.stdout as unknown as { unref?: () => void } | null)?.unref?.();
    (this.process.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    (this.process.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    this.process.unref();
  }

  private accept(conn: Socket): void {
    readHeader(conn, (header, rest) => {
      const pending = header === undefined ? undefined : this.byToken.get(header.token);
      const stream = header?.stream;
      if (pending === undefined || stream === undefined || pending.streams[stream] !== undefined) {
        conn.destroy();
        return;
      }
      if (stream === "stdin" && !pending.withStdin) {
        conn.destroy();
        return;
      }
      if (rest.length > 0) conn.unshift(rest);
      pending.streams[stream] = conn;
      this.maybeHandOver(pending);
    });
  }

  private onControl(line: string): void {
    let message: ControlLine;
    try {
      message = JSON.parse(line) as ControlLine;
    } catch {
      return;
    }
    if (message.ready === true) {
      this.onReady?.(true);
      return;
    }
    const pending = message.id === undefined ? undefined : this.runs.get(message.id);
    if (pending === undefined || message.token !== pending.token) return;
    if (message.started !== undefined) {
      pending.pid = message.started;
      this.maybeHandOver(pending);
    } else if (message.error !== undefined) {
      const error = Object.assign(new Error(message.error), { code: String(message.code) });
      this.forget(pending);
      pending.resolve({ spawnError: describeSpawnError(error, pending.target) });
    } else if (message.exit === true) {
      const code = typeof message.code === "number" ? message.code : null;
      pending.exit = { code, signal: message.signal ?? null };
      // Not at once: the runner attaches its listeners a few promise turns after the hand-over.
      if (pending.child) setImmediate(() => this.exited(pending));
    }
  }

  private maybeHandOver(pending: Pending): void {
    if (pending.child !== undefined || pending.pid === undefined) return;
    const { streams } = pending;
    if (!streams.stdout || !streams.stderr || (pending.withStdin && !streams.stdin)) return;
    const pid = pending.pid;
    pending.child = new RemoteChild(pid, streams.stdin ?? null, streams.stdout, streams.stderr);
    pending.resolve({
      child: pending.child,
      runId: undefined,
      kill: (signal) => this.send({ op: "kill", pid, signal }),
      sweep: () => this.send({ op: "sweep" }),
      lost: () => pending.lost,
    });
    if (pending.exit) setImmediate(() => this.exited(pending));
  }

  private exited(pending: Pending): void {
    if (pending.reported) return;
    pending.reported = true;
    this.forget(pending);
    const exit = pending.exit ?? { code: null, signal: "SIGKILL" };
    pending.child?.emit("exit", exit.code, exit.signal);
  }

  private forget(pending: Pending): void {
    this.runs.delete(pending.id);
    this.byToken.delete(pending.token);
    if (this.runs.size === 0) this.idle();
  }

  private lostMessage(): string {
    return `the sandbox spawner of policy "${this.name}" stopped (its processes were killed with it); the next run starts a new one`;
  }

  private died(why: string): void {
    if (!this.alive) return;
    this.alive = false;
    this.onReady?.(false);
    this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
    const message = `${this.lostMessage()}: ${why}`;
    for (const pending of [...this.runs.values()]) {
      pending.lost = message;
      if (pending.child) {
        pending.exit ??= { code: null, signal: "SIGKILL" };
        setImmediate(() => this.exited(pending));
      } else {
        this.forget(pending);
        for (const stream of SPAWNER_STREAMS) pending.streams[stream]?.destroy();
        pending.resolve({ spawnError: message });
      }
    }
  }
}
