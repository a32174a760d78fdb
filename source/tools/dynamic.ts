import { readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { jsonTextTooDeep, MAX_JSON_DEPTH } from "../config/json-depth.js";
import { meaningfulErrorLine } from "../process/error-output.js";
import { ENV_VAR_NAME, withoutSecrets } from "../process/secrets.js";
import type { ProcessRunner, RunResult } from "../process/types.js";
import { checkJsonInput } from "./json-input.js";
import { capForModel } from "./text.js";
import type { JsonSchema, Tool, ToolResult } from "./types.js";
import { validateOnce } from "./validated-input.js";

const DYNAMIC_TOOL_TIMEOUT_MS = 30_000;
const DESCRIBE_TIMEOUT_MS = 10_000;
const DESCRIBE_MAX_BYTES = 256 * 1024;

/** Tool names the model APIs accept. */
const toolName = z.lazy(() =>
  z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or -"),
);
const objectSchema = z.lazy(() =>
  z.record(z.string(), z.unknown()).refine((s) => s.type === undefined || s.type === "object", {
    message: 'must have "type": "object"',
  }),
);

const metadataSchema = z.lazy(() =>
  z
    .object({
      name: toolName,
      description: z.string().min(1),
      input_schema: objectSchema.optional(),
      inputSchema: objectSchema.optional(),
      parameters: objectSchema.optional(),
      timeout_ms: z.number().int().min(100).max(600_000).optional(),
      env: z
        .array(
          z
            .string()
            .regex(ENV_VAR_NAME, "must be an environment variable name (letters, digits, _)"),
        )
        .max(100)
        .optional(),
    })
    .transform((m) => ({
      name: m.name,
      description: m.description,
      inputSchema: normalizeSchema(m.input_schema ?? m.inputSchema ?? m.parameters),
      timeoutMs: m.timeout_ms ?? DYNAMIC_TOOL_TIMEOUT_MS,
      env: [...new Set(m.env ?? [])],
    })),
);
type DynamicToolMetadata = z.output<typeof metadataSchema>;

function normalizeSchema(schema: Record<string, unknown> | undefined): JsonSchema {
  return { type: "object", properties: {}, ...schema };
}

export interface DynamicToolsOptions {
  /** Searched in order; a name found earlier wins. */
  dirs: readonly string[];
  /** Working directory for describe. */
  projectDir: string;
  runner: ProcessRunner;
  env: Readonly<Record<string, string>>;
  /** Names (compared case-insensitively) a dynamic tool may not take: the built-ins. */
  reserved?: readonly string[];
  /**
   * The secrets a described tool gets of those it asked for (its `env`):
   * project tools only what the user confirmed (tools/registry.ts). Default: all.
   */
  envFor?: (tool: { file: string; name: string; env: readonly string[] }) => string[];
}

/**
 * A dynamic tool as loaded: a Tool plus where it came from and which
 * secret-looking variables it asked for (its describe `env`), for listings and
 * reviews. Everything else of the environment's secrets is scrubbed.
 */
export interface DynamicTool extends Tool {
  readonly dynamic: {
    /** The executable. */
    file: string;
    /** Secret-looking variables (source/process/secrets.ts) it receives; empty: none. */
    env: readonly string[];
  };
}

export function isDynamicTool(tool: Tool): tool is DynamicTool {
  return "dynamic" in tool && typeof (tool as Partial<DynamicTool>).dynamic === "object";
}

export interface DynamicToolsResult {
  tools: DynamicTool[];
  warnings: string[];
}

/** Executable regular files (or links to them) directly in `dir`, sorted by name; none if `dir` is missing. */
/** `<project>/.acai/tools/`: project code, covered by the project's trust. */
export function projectToolsDir(projectDir: string): string {
  return join(projectDir, ".acai", "tools");
}

/** The files of `dir` that are dynamic tools (executable, not hidden), sorted; none if it is missing. */
export async function executablesIn(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const found: string[] = [];
  for (const name of names.sort()) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() && (info.mode & 0o111) !== 0) found.push(path);
  }
  return found;
}

function describeFailure(result: RunResult): string | undefined {
  if (result.spawnError) return result.spawnError;
  if (result.timedOut) return `describe timed out after ${DESCRIBE_TIMEOUT_MS} ms`;
  if (result.truncated.stdout) return `describe printed more than ${DESCRIBE_MAX_BYTES} bytes`;
  if (result.exitCode !== 0) {
    const detail = meaningfulErrorLine(result.stderr) || meaningfulErrorLine(result.stdout);
    const how = result.signal
      ? `was killed by ${result.signal}`
      : `exited with code ${result.exitCode}`;
    return `describe ${how}${detail ? `: ${detail}` : ""}`;
  }
  return undefined;
}

async function describeTool(
  file: string,
  options: DynamicToolsOptions,
): Promise<{ ok: true; metadata: DynamicToolMetadata } | { ok: false; warning: string }> {
  const warn = (why: string) => ({
    ok: false as const,
    warning: `Dynamic tool ${file} skipped: ${why}. Run it with TOOL_ACTION=describe to check.`,
  });
  const result = await options.runner({
    command: file,
    cwd: options.projectDir,
    // No secrets at all: the tool has not said yet which it needs.
    env: {
      ...withoutSecrets(options.env),
      TOOL_ACTION: "describe",
      ACAI_PROJECT_DIR: options.projectDir,
    },
    timeoutMs: DESCRIBE_TIMEOUT_MS,
    maxOutputBytes: DESCRIBE_MAX_BYTES,
    onOutputLimit: "kill",
    killGraceMs: 200,
  });
  const failure = describeFailure(result);
  if (failure) return warn(failure);
  // The schema check below recurses: a describe answer nested deeper than any metadata needs is refused first.
  if (jsonTextTooDeep(result.stdout, MAX_JSON_DEPTH)) {
    return warn(`describe printed JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
  }
  let json: unknown;
  try {
    json = JSON.parse(result.stdout);
  } catch {
    return warn(
      `describe did not print JSON (got "${meaningfulErrorLine(result.stdout) || "nothing"}")`,
    );
  }
  const parsed = metadataSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.join(".") : "metadata";
    return warn(`invalid metadata: ${field}: ${issue?.message ?? "invalid"}`);
  }
  return { ok: true, metadata: parsed.data };
}

function dynamicTool(file: string, metadata: DynamicToolMetadata): DynamicTool {
  const { name, description, inputSchema, timeoutMs, env } = metadata;
  const validate = validateOnce((input) => checkJsonInput(name, inputSchema, input));
  return {
    dynamic: { file, env },
    name,
    description,
    inputSchema,
    validate,
    async execute(input, context): Promise<ToolResult> {
      const checked = validate(input);
      if (!checked.ok) return { ok: false, error: checked.error, interrupted: false };
      const result = await context.runner({
        command: file,
        cwd: context.cwd,
        // context.env is the user's (the Bash tool's); a dynamic tool gets it
        // scrubbed, with only the secrets it named in `env`.
        env: {
          ...withoutSecrets(context.env, env),
          TOOL_ACTION: "execute",
          ACAI_PROJECT_DIR: context.cwd,
        },
        stdin: JSON.stringify(checked.value),
        timeoutMs,
        signal: context.signal,
        // A tool is a request and an answer: what it leaves running (setsid, double fork) ends with it.
        sweepOnExit: true,
        onOutputLimit: "truncate",
      });
      if (result.spawnError)
        return { ok: false, error: `Tool ${name}: ${result.spawnError}`, interrupted: false };
      const interrupted = result.timedOut || result.aborted;
      const response = {
        stdout: result.stdout,
        stderr: result.stderr,
        exit_code: result.exitCode,
        interrupted,
      };
      if (result.exitCode === 0 && !interrupted) {
        return { ok: true, output: capForModel(result.stdout) || "(no output)", response };
      }
      const headline = result.aborted
        ? `Tool ${name} was aborted`
        : result.timedOut
          ? `Tool ${name} timed out after ${timeoutMs} ms and was killed`
          : result.signal
            ? `Tool ${name} was killed by ${result.signal}`
            : `Tool ${name} failed with exit code ${result.exitCode}`;
      const detail = [result.stderr.trim(), result.stdout.trim()].filter(Boolean).join("\n");
      return {
        ok: false,
        error: detail ? `${headline}:\n${capForModel(detail)}` : `${headline} (no output).`,
        interrupted,
        response,
      };
    },
  };
}

/** Describes every executable in `dirs` in parallel; broken ones become warnings. */
export async function loadDynamicTools(options: DynamicToolsOptions): Promise<DynamicToolsResult> {
  const seenDirs = new Set<string>();
  const files: string[] = [];
  for (const dir of options.dirs) {
    const real = await realpath(dir).catch(() => undefined);
    if (!real || seenDirs.has(real)) continue;
    seenDirs.add(real);
    files.push(...(await executablesIn(dir)));
  }
  const described = await Promise.all(files.map((file) => describeTool(file, options)));
  const tools: DynamicTool[] = [];
  const warnings: string[] = [];
  const byName = new Map<string, string>();
  const reserved = new Set((options.reserved ?? []).map((n) => n.toLowerCase()));
  described.forEach((outcome, i) => {
    const file = files[i]!;
    if (!outcome.ok) {
      warnings.push(outcome.warning);
      return;
    }
    const { name } = outcome.metadata;
    if (reserved.has(name.toLowerCase())) {
      warnings.push(
        `Dynamic tool ${file} skipped: its name "${name}" would shadow a built-in tool; rename it.`,
      );
      return;
    }
    const earlier = byName.get(name);
    if (earlier) {
      warnings.push(
        `Dynamic tool ${file} skipped: the name "${name}" is already taken by ${earlier}.`,
      );
      return;
    }
    byName.set(name, file);
    const env = options.envFor?.({ file, name, env: outcome.metadata.env }) ?? outcome.metadata.env;
    tools.push(dynamicTool(file, { ...outcome.metadata, env }));
  });
  return { tools, warnings };
}
