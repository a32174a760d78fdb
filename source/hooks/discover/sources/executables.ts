import { open } from "node:fs/promises";
import path from "node:path";
import { jsonTextTooDeep, MAX_JSON_DEPTH } from "../../../config/json-depth.js";
import { meaningfulErrorLine } from "../../../process/error-output.js";
import type { ProcessRunner, RunResult } from "../../../process/types.js";
import { once } from "../../../shared/once.js";
import { PARSED_ONCE } from "../../../shared/parsed-once.js";
import type { BrokenHook, HookDefinition, HookScope } from "../../contract/definition.js";
import { withoutSecrets } from "../../contract/environment.js";
import { InvalidMatcherError, prepareHookMatcher } from "../../contract/match.js";
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  ExecutableMetadataSchema,
  formatZodError,
} from "../../contract/schemas/metadata.js";
import type { CachedDescribe, MetadataCache } from "../metadata-cache.js";
import type { ScannedFile, ScanReader } from "./files.js";

export interface ExecutableCandidate extends ScannedFile {
  scope: HookScope;
  /** Set by the scan for project hooks: the cached describe output for this exact content. */
  cachedMetadata?: { metadata: unknown };
  /** Set by the scan for project hooks whose describe failed for this exact content: why. */
  cachedFailure?: string;
}

const DESCRIBE_TIMEOUT_MS = 5000;
const DESCRIBE_CONCURRENCY = 8;
const DESCRIBE_OUTPUT_CAP = 256 * 1024;
/** Appended to a describe failure served from the cache, so the user knows how to retry. */
export const CACHED_FAILURE_NOTE = "(cached; edit or touch the file to describe it again)";

/** Hidden files and editor backups (`guard~`) are never hooks. */
function isIgnoredName(name: string): boolean {
  return name.startsWith(".") || name.endsWith("~");
}

async function startsWithShebang(file: string): Promise<boolean> {
  const handle = await open(file, "r").catch(() => undefined);
  if (handle === undefined) return false;
  try {
    const buffer = Buffer.alloc(2);
    const { bytesRead } = await handle.read(buffer, 0, 2, 0);
    return bytesRead === 2 && buffer.toString("latin1") === "#!";
  } finally {
    await handle.close();
  }
}

/**
 * Executable files directly in `dir` (symlinks followed). A non-executable
 * file that starts with `#!` is almost certainly a hook missing `chmod +x`:
 * it is reported as broken instead of being silently ignored.
 */
export async function findExecutables(
  reader: ScanReader,
  dir: string,
  scope: HookScope,
  broken: BrokenHook[],
): Promise<ExecutableCandidate[]> {
  const found: ExecutableCandidate[] = [];
  await Promise.all(
    (await reader.list(dir)).map(async (entry) => {
      if (isIgnoredName(entry.name) || entry.isDirectory()) return;
      const file = path.join(dir, entry.name);
      const stats = await reader.stat(file);
      if (stats === undefined || !stats.isFile()) return;
      if ((stats.mode & 0o111) === 0) {
        if (await startsWithShebang(file)) {
          broken.push({
            file,
            scope,
            sourceKind: "executable",
            name: entry.name,
            reason: `not executable, so it is not run as a hook; run \`chmod +x ${file}\``,
          });
        }
        return;
      }
      const scanned = await reader.scan(file);
      if (scanned === undefined) {
        broken.push({
          file,
          scope,
          sourceKind: "executable",
          name: entry.name,
          reason: "cannot be read",
        });
        return;
      }
      found.push({ ...scanned, scope });
    }),
  );
  return found.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The describe step sees no secrets at all: the hook has not said which it needs yet. */
function describeEnv(
  env: Readonly<Record<string, string>>,
  projectDir: string,
): Record<string, string> {
  const result = withoutSecrets(env);
  result.HOOK_ACTION = "describe";
  result.ACAI_PROJECT_DIR = projectDir;
  result.CLAUDE_PROJECT_DIR = projectDir;
  return result;
}

export interface LoadExecutablesOptions {
  runner: ProcessRunner;
  env: Readonly<Record<string, string>>;
  projectDir: string;
  cache: MetadataCache;
  now: () => number;
  concurrency?: number;
  describeTimeoutMs?: number;
  /** For hooks whose metadata sets no `timeout_ms` (default 30 000). */
  defaultTimeoutMs?: number;
}

type DescribeOutcome = CachedDescribe;

function interpretDescribe(result: RunResult, timeoutMs: number): DescribeOutcome {
  if (result.spawnError !== undefined)
    return { ok: false, reason: `could not be started: ${result.spawnError}` };
  if (result.timedOut) {
    return { ok: false, reason: `HOOK_ACTION=describe did not finish within ${timeoutMs} ms` };
  }
  if (result.truncated.stdout || result.truncated.stderr) {
    return { ok: false, reason: "HOOK_ACTION=describe printed more output than allowed" };
  }
  if (result.exitCode !== 0) {
    const how =
      result.exitCode === null
        ? `was killed by ${result.signal ?? "a signal"}`
        : `exited with code ${result.exitCode}`;
    const stderr = meaningfulErrorLine(result.stderr);
    return { ok: false, reason: `HOOK_ACTION=describe ${how}${stderr ? `: ${stderr}` : ""}` };
  }
  const text = result.stdout.trim();
  if (text === "")
    return { ok: false, reason: "HOOK_ACTION=describe printed nothing; expected JSON metadata" };
  // Validating metadata recurses: an answer nested deeper than any metadata needs is refused first.
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH)) {
    return {
      ok: false,
      reason: `HOOK_ACTION=describe printed JSON nested more than ${MAX_JSON_DEPTH} levels deep`,
    };
  }
  try {
    return { ok: true, metadata: JSON.parse(text) as unknown };
  } catch {
    return {
      ok: false,
      reason: `HOOK_ACTION=describe did not print valid JSON: ${meaningfulErrorLine(text)}`,
    };
  }
}

/** Metadata (fresh or cached) → definition, or the reason it is broken. */
export function executableDefinition(
  candidate: ExecutableCandidate,
  metadata: unknown,
  projectDir: string,
  defaultTimeoutMs = DEFAULT_HOOK_TIMEOUT_MS,
): HookDefinition | BrokenHook {
  const base = { file: candidate.path, scope: candidate.scope, sourceKind: "executable" as const };
  const parsed = ExecutableMetadataSchema.safeParse(metadata, PARSED_ONCE);
  if (!parsed.success) {
    return {
      ...base,
      name: path.basename(candidate.path),
      reason: `invalid metadata: ${formatZodError(parsed.error)}`,
    };
  }
  const meta = parsed.data;
  const hook: HookDefinition = {
    id: `${candidate.scope}:executable:${candidate.path}`,
    name: meta.name ?? path.basename(candidate.path),
    events: [...new Set(meta.events)],
    matcher: meta.matcher,
    priority: meta.priority,
    timeoutMs: meta.timeout_ms ?? defaultTimeoutMs,
    async: meta.async,
    failure: meta.failure,
    env: meta.env,
    ...(meta.sandbox === undefined ? {} : { sandbox: meta.sandbox }),
    ...base,
    dialect: "acai",
    launch: {
      command: candidate.path,
      args: [],
      viaShell: false,
      ...(meta.mode === "persistent" ? { mode: meta.mode } : {}),
    },
  };
  if (meta.description !== undefined) hook.description = meta.description;
  if (meta.max_retries !== undefined) hook.maxRetries = meta.max_retries;
  // Kept as written for spawned hooks too: the chain ignores it there (canAskAhead), the registry warns.
  if (meta.ask_ahead === true) hook.askAhead = true;
  try {
    prepareHookMatcher(hook, projectDir);
  } catch (error) {
    if (error instanceof InvalidMatcherError)
      return { ...base, name: hook.name, reason: error.message };
    throw error;
  }
  return hook;
}

async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/**
 * Describes each candidate (cache first; only misses spawn, a few at a time)
 * and turns the metadata into definitions. Saves the cache when it changed.
 */
export async function loadExecutables(
  candidates: readonly ExecutableCandidate[],
  options: LoadExecutablesOptions,
): Promise<{ hooks: HookDefinition[]; broken: BrokenHook[] }> {
  const timeoutMs = options.describeTimeoutMs ?? DESCRIBE_TIMEOUT_MS;
  // Only a describe that runs needs it (a warm start reads every hook from the cache).
  const env = once(() => describeEnv(options.env, options.projectDir));
  const outcomes = await mapLimited(
    candidates,
    options.concurrency ?? DESCRIBE_CONCURRENCY,
    async (candidate) => {
      const cached = options.cache.lookup(candidate);
      if (cached?.ok) return cached;
      if (cached !== undefined)
        return { ok: false, reason: `${cached.reason} ${CACHED_FAILURE_NOTE}` };
      const result = await options.runner({
        command: candidate.path,
        args: [],
        cwd: options.projectDir,
        env: env(),
        stdin: "",
        timeoutMs,
        maxOutputBytes: DESCRIBE_OUTPUT_CAP,
        onOutputLimit: "kill",
        killGraceMs: 500,
      });
      // Interrupted (Ctrl-C while the session starts): not the hook's fault, not cached.
      if (result.aborted) return { ok: false, reason: "HOOK_ACTION=describe was interrupted" };
      const outcome = interpretDescribe(result, timeoutMs);
      // Failures are cached too (against the file's identity): a hook that hangs would
      // otherwise cost the describe timeout on every start. Editing (or touching) the file retries.
      if (outcome.ok) options.cache.set(candidate, outcome.metadata, options.now());
      else options.cache.setFailure(candidate, outcome.reason, options.now());
      return outcome;
    },
  );
  const hooks: HookDefinition[] = [];
  const broken: BrokenHook[] = [];
  candidates.forEach((candidate, index) => {
    const outcome = outcomes[index] as DescribeOutcome;
    if (!outcome.ok) {
      broken.push({
        file: candidate.path,
        scope: candidate.scope,
        sourceKind: "executable",
        name: path.basename(candidate.path),
        reason: outcome.reason,
      });
      return;
    }
    const result = executableDefinition(
      candidate,
      outcome.metadata,
      options.projectDir,
      options.defaultTimeoutMs,
    );
    if ("launch" in result) hooks.push(result);
    else broken.push(result);
  });
  await options.cache.save().catch(() => undefined);
  return { hooks, broken };
}
