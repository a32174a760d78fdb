/** The root command's options (`acai [prompt]`, `acai -p`): declared for commander, parsed, checked. */
import { type Command, InvalidArgumentError, Option } from "commander";
import { BASE_URL_REQUIREMENT, isHttpUrl } from "../config/base-url.js";
import { MAX_STEPS_MAX, MAX_STEPS_MIN, MAX_STEPS_REQUIREMENT } from "../config/max-steps.js";
import {
  PERMISSION_MODES,
  type PermissionMode,
  parseRuleText,
  splitRuleList,
} from "../permissions/rules.js";
import { agentNameProblem } from "../relay/names.js";
import type { ProjectHooksMode } from "../session/types.js";
import { OUTPUT_FORMATS, type OutputFormat } from "./print.js";

/** Options of the root command, parsed and checked. */
export interface MainOptions {
  /** `-p "text"` → the text; `-p` alone → read the prompt from stdin. */
  print: string | true | undefined;
  /** Positional prompt (used with `-p` alone, or as the REPL's first prompt). */
  prompt: string | undefined;
  outputFormat: OutputFormat;
  maxSteps: number | undefined;
  model: string | undefined;
  baseUrl: string | undefined;
  systemPrompt?: string | undefined;
  appendSystemPrompt?: string | undefined;
  /** `-c, --continue`: the latest session of this project. */
  continue?: true | undefined;
  /** `--resume ID`: the session whose id starts with ID. */
  resume?: string | undefined;
  yes: boolean;
  /** `--permission-mode`, or bypassPermissions for `--dangerously-skip-permissions`. */
  permissionMode: PermissionMode | undefined;
  /** `--allowedTools` rules, each flag's list split. */
  allowedTools: string[];
  /** `--disallowedTools` rules. */
  disallowedTools: string[];
  /** Text format: also show tool calls and every hook run on stderr. */
  verbose: boolean;
  projectHooks: ProjectHooksMode;
  /** `--name`: this session's agent name on the relay (default: the project's name and a short id). */
  name?: string | undefined;
  /** `--listen` (with -p): keep running and answer messages until stopped. */
  listen?: boolean;
}

function parseMaxSteps(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < MAX_STEPS_MIN || n > MAX_STEPS_MAX) {
    throw new InvalidArgumentError(`${MAX_STEPS_REQUIREMENT}.`);
  }
  return n;
}

function parseModel(value: string): string {
  if (value.trim() === "") {
    throw new InvalidArgumentError(
      "must name a model, e.g. --model openai:gpt-5.1 or --model replay:examples/replay/demo.json (leave --model out for the default).",
    );
  }
  return value;
}

/** One `--allowedTools` / `--disallowedTools` value: rules separated by commas or spaces, added to earlier ones. */
function collectRules(value: string, previous: string[] | undefined): string[] {
  const rules = splitRuleList(value);
  if (rules.length === 0) {
    throw new InvalidArgumentError('give at least one rule, e.g. "Bash(npm test:*)" or Edit.');
  }
  for (const rule of rules) {
    const parsed = parseRuleText(rule);
    if (!parsed.ok) {
      throw new InvalidArgumentError(
        `${parsed.error}. Rules are written as Claude Code's: Bash, "Bash(npm test:*)", "Edit(src/**)", mcp__github__*.`,
      );
    }
  }
  return [...(previous ?? []), ...rules];
}

function parseAgentName(value: string): string {
  const problem = agentNameProblem(value);
  if (problem) throw new InvalidArgumentError(`${problem}.`);
  return value;
}

function parseBaseUrl(value: string): string {
  if (!isHttpUrl(value)) throw new InvalidArgumentError(`${BASE_URL_REQUIREMENT}.`);
  return value;
}

/** The root's prompt and options, in the order `--help` lists them. */
export function addMainOptions(program: Command): Command {
  program.argument(
    "[prompt]",
    "the prompt (with -p and no value; otherwise the REPL's first prompt)",
  );
  addRunOptions(program);
  addPermissionOptions(program);
  addAgentOptions(program);
  addProjectOptions(program);
  return program;
}

function addRunOptions(program: Command): void {
  program
    .option(
      "-p, --print [prompt]",
      "run one prompt headless and print the result (prompt from stdin if omitted)",
    )
    .addOption(
      new Option("--output-format <format>", "output of -p")
        .choices(OUTPUT_FORMATS)
        .default("text"),
    )
    .option("--max-steps <n>", "maximum model requests per turn", parseMaxSteps)
    .option(
      "--model <spec>",
      "model: openai:MODEL (or just MODEL), openai-chat:MODEL, openai-responses:MODEL, anthropic:MODEL (ANTHROPIC_API_KEY), or replay:FILE",
      parseModel,
    )
    .option("--base-url <url>", "OpenAI-compatible server (also OPENAI_BASE_URL)", parseBaseUrl)
    .option("--system-prompt <text>", "replace acai's system prompt (AGENTS.md still follows)")
    .option("--append-system-prompt <text>", "add text at the end of the system prompt")
    .addOption(
      new Option("-c, --continue", "continue the latest session of this project").conflicts(
        "resume",
      ),
    )
    .option("--resume <id>", "continue the session with this id (a unique prefix is enough)");
}

function addPermissionOptions(program: Command): void {
  program
    .option(
      "-y, --yes",
      "answer yes to every permission question and hook `ask` (headless runs deny them otherwise)",
    )
    .addOption(
      new Option(
        "--permission-mode <mode>",
        "default (ask before Bash, Write, Edit, MCP tools), acceptEdits, plan (read-only tools), bypassPermissions (also --dangerously-skip-permissions)",
      ).choices(PERMISSION_MODES),
    )
    .option(
      "--allowedTools <rules>",
      'allow these without asking, e.g. "Bash(npm test:*) Edit(src/**)" (repeatable)',
      collectRules,
    )
    .option(
      "--disallowedTools <rules>",
      'deny these, e.g. "Bash(curl:*)" (repeatable; a deny beats any allow)',
      collectRules,
    )
    // Claude Code's flag, listed under --permission-mode (its name would widen every line of --help).
    .addOption(new Option("--dangerously-skip-permissions").hideHelp().conflicts("permissionMode"))
    // Kebab-case spellings, as Claude Code also accepts them.
    .addOption(new Option("--allowed-tools <rules>").hideHelp().argParser(collectRules))
    .addOption(new Option("--disallowed-tools <rules>").hideHelp().argParser(collectRules));
}

function addAgentOptions(program: Command): void {
  program
    .option(
      "--name <name>",
      "this agent's name for messages between agents (@relay:NAME, acai send); default: the project's name and a short id",
      parseAgentName,
    )
    .option(
      "--listen",
      "with -p: keep running after the prompt and answer messages from other agents until SIGINT/SIGTERM",
    )
    .option("--verbose", "text output: also show tool calls and hook runs on stderr");
}

function addProjectOptions(program: Command): void {
  program
    .addOption(
      new Option(
        "--trust-project",
        "use this project's hooks, tools and settings this time without recording trust",
      ).conflicts(["project", "projectHooks"]),
    )
    .addOption(
      new Option("--no-project", "run with none of this project's hooks, tools or settings"),
    )
    // The earlier names keep working, unlisted.
    .addOption(
      new Option("--trust-project-hooks").hideHelp().conflicts(["project", "projectHooks"]),
    )
    .addOption(new Option("--no-project-hooks").hideHelp());
}

/** What commander parsed, as `MainOptions`. */
export function mainOptionsOf(
  prompt: string | undefined,
  raw: Record<string, unknown>,
): MainOptions {
  return {
    print: raw.print as string | true | undefined,
    prompt,
    outputFormat: raw.outputFormat as OutputFormat,
    maxSteps: raw.maxSteps as number | undefined,
    model: raw.model as string | undefined,
    baseUrl: raw.baseUrl as string | undefined,
    systemPrompt: raw.systemPrompt as string | undefined,
    appendSystemPrompt: raw.appendSystemPrompt as string | undefined,
    continue: raw.continue === true ? true : undefined,
    resume: raw.resume as string | undefined,
    yes: raw.yes === true,
    permissionMode:
      raw.dangerouslySkipPermissions === true
        ? "bypassPermissions"
        : (raw.permissionMode as PermissionMode | undefined),
    // `--allowed-tools` shares `--allowedTools`' attribute (commander camel-cases it).
    allowedTools: (raw.allowedTools as string[] | undefined) ?? [],
    disallowedTools: (raw.disallowedTools as string[] | undefined) ?? [],
    verbose: raw.verbose === true,
    ...(typeof raw.name === "string" ? { name: raw.name } : {}),
    ...(raw.listen === true ? { listen: true } : {}),
    projectHooks: projectHooksOf(raw),
  };
}

function projectHooksOf(raw: Record<string, unknown>): ProjectHooksMode {
  if (raw.project === false || raw.projectHooks === false) return "off";
  if (raw.trustProject === true || raw.trustProjectHooks === true) return "trust-once";
  return "require-trust";
}
