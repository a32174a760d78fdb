/**
 * acai's side of one sandbox spawner (the script is spawner-script.ts;
 * decision 0013): bwrap started once with the policy's options, containment
 * added, running acai's own Node with the spawner script — or, where the
 * launch asks for it, the system's Python with the same protocol
 * (spawn-helper-python.ts, decision 0059); a unix socket
 * served by acai in a private temp folder, bind-mounted read-only into the
 * sandbox (the spawner connects out; nothing in the sandbox can replace the
 * socket); JSON lines to the spawner's stdin and from its stdout.
 *
 * One run: acai sends `spawn` with a fresh random token; the spawner takes
 * one of its spare connections per stream (each opened ahead, starting with
 * "<secret> <conn id>\n"; the secret was said once on the control channel),
 * forks the child with them as its stdio and answers `started` with their ids
 * (or `error`); the run is handed to the runner once those have arrived. Exit code and signal are the
 * child's own. Kills go to the child's process group inside the namespace.
 * If the spawner dies, its runs end as killed and say why (`lost`), and the
 * next run starts a new one (sandbox-launch.ts).
 *
 * Without a `launch` the same script runs outside any sandbox as acai's spawn
 * helper (spawn-helper.ts, decision 0041): no bwrap, the children's stdio are
 * pipes the script relays, and kills go from acai to the child's process
 * group directly (same PID namespace; no round trip, and they still work
 * after the helper died).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import type { ChildHandle, SpawnOutcome } from "./handle.js";
import { KeptEnvFiles } from "./kept-env-files.js";
import { describeSpawnError, killGroup, type SpawnTarget } from "./spawn.js";
import { type SocketFolder, socketFolder, sweepStaleFoldersOnce } from "./spawner-folder.js";
import { type SpawnerOptions, type SpawnerPlace, spawnerCommand } from "./spawner-launch.js";
import { jsonLine, newToken, nulRecord, readHeader, type SpawnerRequest } from "./spawner-wire.js";
import type { SpawnerKind } from "./types.js";

/** Spare connections acai keeps at most (the spawner keeps 4 ahead, more while runs wait). */
const MAX_SPARES = 64;

/** The `conns` of a `started` line: `count` distinct positive integers, else none. */
function connIds(value: unknown, count: number): number[] | undefined {
  if (!Array.isArray(value) || value.length !== count) return undefined;
  const ids = value.filter((id): id is number => Number.isInteger(id) && id > 0);
  return new Set(ids).size === count ? ids : undefined;
}

/** A sandboxed child's stdin: a stream acai writes, none, or a text written for it (one-shot runs). */
export type SandboxStdin = "pipe" | "ignore" | { text: string };

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
  /** The connections the spawner gave the child, by id (stdin first if any, stdout, stderr). */
  conns?: readonly number[];
  pid?: number;
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  child?: RemoteChild;
  lost?: string;
  reported?: boolean;
  /** Its CLAUDE_ENV_FILE as the spawner handed it back at the exit (kept-env-files.ts). */
  envBack?: unknown;
  resolve: (outcome: SpawnOutcome) => void;
}

interface ControlLine {
  ready?: boolean;
  id?: number;
  token?: string;
  started?: number;
  conns?: unknown;
  error?: string;
  code?: string | number | null;
  exit?: boolean;
  signal?: NodeJS.Signals | null;
  envFile?: unknown;
}

export class Spawner {
  private readonly runs = new Map<number, Pending>();
  /** The spawner's spare connections that arrived, by id, until a run claims them. */
  private readonly spares = new Map<number, Socket>();
  private readonly secret = newToken();
  private readonly kept = new KeptEnvFiles();
  private nextId = 0;
  private alive = true;
  private onReady: ((ok: boolean) => void) | undefined;

  private constructor(
    private readonly process: ChildProcess,
    private readonly server: Server,
    private readonly removeDir: () => void,
    private readonly place: SpawnerPlace,
  ) {}

  /** Starts a spawner for `options.launch`; resolves once it is ready, or with why it is not. */
  static async start(options: SpawnerOptions): Promise<Spawner | { failure: string }> {
    let folder: SocketFolder;
    try {
      folder = socketFolder(options);
    } catch (error) {
      return { failure: (error as Error).message };
    }
    const { dir, remove: removeDir } = folder;
    const socketPath = join(dir, "s");
    const server = createServer({ allowHalfOpen: false });
    // The socket is bound at once; its "listening" (or an error) comes later, while the spawner
    // starts — which connects only after acai's hello, sent once it said it is ready.
    const listening = new Promise<string | undefined>((resolve) => {
      server.once("error", (error) => resolve(error.message));
      server.listen(socketPath, () => resolve(undefined));
    });
    server.unref();
    const [command, args] = spawnerCommand(options, folder, socketPath);
    let child: ChildProcess;
    try {
      child = spawn(command, args, {
        env: options.env,
        cwd: "/",
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (error) {
      server.close();
      removeDir();
      return { failure: (error as Error).message };
    }
    const spawner = new Spawner(child, server, removeDir, options.place);
    server.on("connection", (conn) => spawner.accept(conn));
    const ready = spawner.waitReady(options.readyTimeoutMs ?? 10_000);
    const refused = await listening;
    if (refused !== undefined) {
      spawner.stop();
      return { failure: `cannot listen on ${socketPath}: ${refused}` };
    }
    const started = await ready;
    // The folders left by acais killed outright go now, in the background (spawner-folder.ts).
    if (started instanceof Spawner) sweepStaleFoldersOnce(options.tmpDir);
    return started;
  }

  get running(): boolean {
    return this.alive;
  }

  /** Which script this is: for tests and benchmarks. */
  get helperKind(): SpawnerKind {
    return this.place.python === undefined ? "node" : "python";
  }

  /** The spawner's own pid (bwrap's, for a sandbox's): for tests. */
  get pid(): number | undefined {
    return this.process.pid;
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
          this.send({ op: "hello", secret: this.secret });
          this.idle();
          resolve(this);
          return;
        }
        this.stop();
        const said = stderr.trim().split("\n")[0];
        const who = this.place.kind === "sandbox" ? "bwrap" : "it";
        resolve({ failure: said ? `${who} said: ${said}` : "it did not get ready" });
      };
    });
  }

  /** Whether a run may still keep its CLAUDE_ENV_FILE here (kept-env-files.ts, decision 0069). */
  get keepsEnvFiles(): boolean {
    return this.place.kind === "sandbox" && this.kept.private;
  }

  /**
   * Starts `target` (its environment complete) in the sandbox; `{text}`: the spawner writes its stdin.
   * `keepEnvFile`: its CLAUDE_ENV_FILE, kept in the namespace and written back at the exit (only
   * while `keepsEnvFiles`).
   */
  run(target: SpawnTarget, stdin: SandboxStdin, keepEnvFile?: string): Promise<SpawnOutcome> {
    const withStdin = stdin === "pipe";
    if (!this.alive) return Promise.resolve({ spawnError: this.lostMessage() });
    const id = ++this.nextId;
    const token = newToken();
    const keep = keepEnvFile !== undefined;
    if (keep && !this.keepsEnvFiles) {
      const spawnError = `cannot keep the CLAUDE_ENV_FILE of "${target.command}" in this sandbox: other processes ran in it`;
      return Promise.resolve({ spawnError });
    }
    if (!keep) this.kept.otherRun();
    const request: SpawnerRequest = {
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
      ...(keep ? { envFile: this.kept.begin(id, keepEnvFile) } : {}),
    };
    const encoded = this.encode(request);
    if (encoded === undefined) {
      this.kept.forget(id);
      const spawnError = `cannot run "${target.command}": its command, arguments, working directory or environment hold a NUL byte`;
      return Promise.resolve({ spawnError });
    }
    return new Promise((resolve) => {
      this.runs.set(id, { id, token, target, withStdin, resolve });
      this.busy();
      this.write(encoded);
    });
  }

  /** Closes its stdin: it kills what still runs and exits, and bwrap's namespace with it. */
  stop(): void {
    this.process.stdin?.destroy();
    this.died("it was stopped");
  }

  private encode(request: SpawnerRequest): string | undefined {
    return this.place.python !== undefined ? nulRecord(request) : jsonLine(request);
  }

  private send(request: SpawnerRequest): void {
    const encoded = this.encode(request);
    if (encoded !== undefined) this.write(encoded);
  }

  private write(encoded: string): void {
    const stdin = this.process.stdin;
    if (this.alive && stdin?.writable) stdin.write(encoded);
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
      const id = header?.secret === this.secret ? header.conn : undefined;
      // A run's connection may close before it is claimed (the child already exited): it stays.
      if (this.spares.size >= MAX_SPARES) this.evictClosedSpares();
      if (id === undefined || this.spares.has(id) || this.spares.size >= MAX_SPARES) {
        conn.destroy();
        return;
      }
      if (rest.length > 0) conn.unshift(rest);
      // A spare waiting in the pool does not keep acai running (one started ahead may never
      // be used); it is a run's stream again once handed over.
      conn.unref();
      this.spares.set(id, conn);
      for (const pending of this.runs.values()) {
        if (pending.conns?.includes(id)) this.maybeHandOver(pending);
      }
    });
  }

  private evictClosedSpares(): void {
    for (const [id, conn] of this.spares) if (conn.destroyed) this.spares.delete(id);
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
      this.started(pending, message);
    } else if (message.error !== undefined) {
      const error = Object.assign(new Error(message.error), { code: String(message.code) });
      this.forget(pending);
      pending.resolve({ spawnError: describeSpawnError(error, pending.target) });
    } else if (message.exit === true) {
      const code = typeof message.code === "number" ? message.code : null;
      pending.exit = { code, signal: message.signal ?? null };
      pending.envBack = message.envFile;
      // Not at once: the runner attaches its listeners a few promise turns after the hand-over.
      if (pending.child) setImmediate(() => this.exited(pending));
    }
  }

  private started(pending: Pending, message: ControlLine): void {
    const pid = message.started;
    // A pid acai may signal the group of: never 0, 1 or negative (kill(-0) is acai's own group).
    const validPid = Number.isInteger(pid) && pid !== undefined && pid > 1;
    const conns = connIds(message.conns, pending.withStdin ? 3 : 2);
    if (!validPid || conns === undefined) {
      if (validPid) this.send({ op: "kill", pid, signal: "SIGKILL" });
      this.forget(pending);
      const spawnError = `cannot run "${pending.target.command}": the spawner's answer was not understood`;
      pending.resolve({ spawnError });
      return;
    }
    pending.pid = pid;
    pending.conns = conns;
    this.maybeHandOver(pending);
  }

  private maybeHandOver(pending: Pending): void {
    if (pending.child !== undefined || pending.pid === undefined) return;
    const ids = pending.conns ?? [];
    if (ids.length === 0 || !ids.every((id) => this.spares.has(id))) return;
    const streams = ids.map((id) => this.spares.get(id)!);
    for (const id of ids) this.spares.delete(id);
    for (const stream of streams) stream.ref();
    const [stdin, stdout, stderr] = pending.withStdin ? streams : [null, ...streams];
    const pid = pending.pid;
    pending.child = new RemoteChild(pid, stdin ?? null, stdout!, stderr!);
    const remote = {
      child: pending.child,
      runId: undefined,
      lost: () => pending.lost,
    };
    pending.resolve(
      this.place.kind === "host"
        ? { ...remote, kill: (signal) => killGroup(pid, signal) }
        : {
            ...remote,
            kill: (signal) => this.send({ op: "kill", pid, signal }),
            sweep: () => this.send({ op: "sweep" }),
          },
    );
    if (pending.exit) setImmediate(() => this.exited(pending));
  }

  private exited(pending: Pending): void {
    if (pending.reported) return;
    pending.reported = true;
    this.kept.end(pending.id, pending.envBack);
    this.forget(pending);
    const exit = pending.exit ?? { code: null, signal: "SIGKILL" };
    pending.child?.emit("exit", exit.code, exit.signal);
  }

  private forget(pending: Pending): void {
    this.kept.forget(pending.id);
    this.runs.delete(pending.id);
    if (this.runs.size === 0) this.idle();
  }

  private lostMessage(): string {
    const what =
      this.place.kind === "host"
        ? "acai's spawn helper"
        : `the sandbox spawner of policy "${this.place.launch.name}"`;
    return `${what} stopped (its processes were killed with it); the next run starts a new one`;
  }

  private died(why: string): void {
    if (!this.alive) return;
    this.alive = false;
    this.onReady?.(false);
    this.server.close();
    for (const conn of this.spares.values()) conn.destroy();
    this.spares.clear();
    this.removeDir();
    const message = `${this.lostMessage()}: ${why}`;
    for (const pending of [...this.runs.values()]) {
      pending.lost = message;
      // On the host a run's group outlives the helper: killed here, handed over or not yet.
      if (this.place.kind === "host") killGroup(pending.pid, "SIGKILL");
      if (pending.child) {
        pending.exit ??= { code: null, signal: "SIGKILL" };
        setImmediate(() => this.exited(pending));
      } else {
        this.forget(pending);
        pending.resolve({ spawnError: message });
      }
    }
  }
}
