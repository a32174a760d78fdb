/**
 * The session's persistent hooks (hooks.md §6.4): one process per hook,
 * started at its first request — so never before the hook is loaded, which
 * for a project hook means after trust — and stopped at session end within
 * the budget (stdin closed, then TERM, KILL, and its escapees swept), or
 * killed at once when the run closes. Same environment as a spawned hook
 * (secrets scrubbed unless listed in `env`) with `HOOK_ACTION=serve`, same
 * containment (process.ts's marker, long-lived.ts).
 */
import type { ProcessStarter } from "../../../process/long-lived.js";
import type { HookDefinition } from "../../contract/definition.js";
import { buildHookEnvironment } from "../../contract/environment.js";
import { DEFAULT_MAX_OUTPUT_BYTES, launchOf } from "../run.js";
import type { HookRunRecord } from "../run-record.js";
import { Outbox } from "./outbox.js";
import { requestLine } from "./protocol.js";
import { HookProcessSlot } from "./slot.js";
import type { PersistentHooks, PersistentRequest } from "./types.js";

export interface PersistentHostOptions {
  starter: ProcessStarter;
  /** One hook's starter when it differs per hook (the OS sandbox with the hook's own needs). */
  starterFor?: (hook: HookDefinition) => ProcessStarter;
  /** The parent environment (secrets are scrubbed per hook). */
  env: Readonly<Record<string, string>>;
  projectDir: string;
  /** The session id when a process starts (known from session_start on). */
  sessionId: () => string;
  /** Cap of one answer line (default 1 MiB, the spawned hooks' output cap). */
  maxLineBytes?: number;
  /** Requests in flight per process (default 256). */
  maxPending?: number;
  now?: () => number;
}

export interface PersistentHost extends PersistentHooks {
  /** Runs `ask`; the requests it makes are written back to back when it returns (outbox.ts). */
  together<T>(ask: () => T): T;
  /** Asks every process to finish (stdin closed) and waits up to `graceMs`; then kills what is left, with its tree. */
  stop(graceMs: number): Promise<void>;
  /** Kills every process and its tree now. */
  kill(): void;
}

/** Request bytes a process may leave unread before it is taken as not reading. */
const MAX_UNREAD_BYTES = 16 * 1024 * 1024;

/** One hook's process, and its command as every record of it names it (made once). */
interface Served {
  slot: HookProcessSlot;
  command: string;
  args: readonly string[];
}

export function createPersistentHost(options: PersistentHostOptions): PersistentHost {
  const served = new Map<string, Served>();
  const outbox = new Outbox();
  const now = options.now ?? performance.now.bind(performance);
  const servedFor = (hook: HookDefinition): Served => {
    let one = served.get(hook.id);
    if (one === undefined) {
      const { command, args } = launchOf(hook);
      const slot = new HookProcessSlot({
        hook,
        starter: options.starterFor?.(hook) ?? options.starter,
        env: () => serveEnvironment(options, hook),
        command,
        args,
        cwd: options.projectDir,
        maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
        maxPending: options.maxPending ?? 256,
        maxUnreadBytes: MAX_UNREAD_BYTES,
        now,
        outbox,
      });
      one = { slot, command, args: Object.freeze(args) };
      served.set(hook.id, one);
    }
    return one;
  };
  return {
    request: (request) => requestOnce(servedFor(request.hook), request, now),
    together: (ask) => outbox.together(ask),
    stop: async (graceMs) => {
      await Promise.all([...served.values()].map(({ slot }) => slot.stop(graceMs)));
    },
    kill: () => {
      for (const { slot } of served.values()) slot.kill();
    },
  };
}

async function requestOnce(
  { slot, command, args }: Served,
  request: PersistentRequest,
  now: () => number,
): Promise<HookRunRecord> {
  const { hook, event } = request;
  const started = now();
  const outcome = await slot.request(
    (id) => requestLine(id, request.payload, hook.dialect),
    request.signal,
    event,
  );
  return {
    hookId: hook.id,
    event,
    stdin: outcome.sent,
    command,
    args,
    exitCode: outcome.exitCode ?? null,
    signal: outcome.signal ?? null,
    stdout: outcome.stdout ?? "",
    stderr: outcome.stderr ?? "",
    durationMs: now() - started,
    timedOut: outcome.timedOut ?? false,
    aborted: outcome.aborted ?? false,
    outputLimit: outcome.outputLimit ?? false,
    ...(outcome.spawnError === undefined ? {} : { spawnError: outcome.spawnError }),
    decision: outcome.decision,
  };
}

/** A spawned hook's environment (hooks.md §3) for a process that serves every event: `HOOK_ACTION=serve`. */
function serveEnvironment(
  options: PersistentHostOptions,
  hook: HookDefinition,
): Record<string, string> {
  const env = buildHookEnvironment({
    parentEnv: options.env,
    hook,
    projectDir: options.projectDir,
    sessionId: options.sessionId(),
    event: "session_start",
  });
  delete env.ACAI_HOOK_EVENT;
  delete env.CLAUDE_ENV_FILE;
  env.HOOK_ACTION = "serve";
  return env;
}
