import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
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
import type { CommandContext } from "./command-context.js";
import { formatUnexpected } from "./errors.js";
import { EXIT, EXIT_CODES_HELP } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { emptyOutcome } from "./outcome.js";
import { OUTPUT_FORMATS, type OutputFormat, resultObject } from "./print.js";
import { firstOperand, quoteThePromptError } from "./root-args.js";

export { firstOperand };

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

const HELP_AFTER = `
Examples:
  acai -p "list the TODOs in src/"                 one prompt, answer on stdout
  echo "fix the failing test" | acai -p            prompt on stdin
  acai -p "summarise" --output-format json         one JSON result object
  acai -p "hi" --model replay:examples/replay/demo.json   offline, scripted model
  acai hooks trust                                 trust this project's hooks
  acai -p --listen --name reviewer                 a headless agent that answers messages
  acai send reviewer "check src/auth.ts"           message a running agent (acai agents lists them)

Models: --model openai:MODEL or just MODEL (needs OPENAI_API_KEY, or --base-url /
OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama or vLLM; the
Responses API at OpenAI, Chat Completions with a base URL), openai-chat:MODEL or
openai-responses:MODEL to force one API, anthropic:MODEL (needs ANTHROPIC_API_KEY,
or ANTHROPIC_BASE_URL for a proxy), or replay:FILE (a scripted, offline model).
Without --model: gpt-5.1 when OpenAI's variables are set, else claude-sonnet-4-5
when Anthropic's are.

Environment: ACAI_HOME (default ~/.acai), OPENAI_API_KEY, OPENAI_BASE_URL,
ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ACAI_DEBUG=1.

${EXIT_CODES_HELP}
`;

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

export interface ProgramHandlers {
  main(options: MainOptions, ctx: CommandContext): Promise<number>;
}

/** A usage error as printed: `acai: error: …`; a prompt typed without quotes gets the quoting hint. */
function rootUsageError(text: string, args: readonly string[]): string {
  const excess = /^error: too many arguments\. /.test(text) && firstOperand(args) !== "hooks";
  return (excess ? quoteThePromptError(args) : text).replace(/^error: /, "acai: error: ");
}

/**
 * Builds the program. `acai hooks …` modules are loaded only when that command
 * is asked for: `acai -p` start-up does not pay for them.
 */
export async function buildProgram(
  ctx: CommandContext,
  handlers: ProgramHandlers,
): Promise<Command> {
  const program = new Command("acai");
  program
    .description("A terminal coding agent built around a hooks middleware.")
    .version(ctx.io.version, "-v, --version", "print the version")
    .helpOption("-h, --help", "show this help")
    .argument("[prompt]", "the prompt (with -p and no value; otherwise the REPL's first prompt)")
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
    .option("--resume <id>", "continue the session with this id (a unique prefix is enough)")
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
    .addOption(new Option("--disallowed-tools <rules>").hideHelp().argParser(collectRules))
    .option(
      "--name <name>",
      "this agent's name for messages between agents (@relay:NAME, acai send); default: the project's name and a short id",
      parseAgentName,
    )
    .option(
      "--listen",
      "with -p: keep running after the prompt and answer messages from other agents until SIGINT/SIGTERM",
    )
    .option("--verbose", "text output: also show tool calls and hook runs on stderr")
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
    .addOption(new Option("--no-project-hooks").hideHelp())
    .addHelpText("after", HELP_AFTER)
    .helpCommand("help [command]", "show help for a command")
    .showHelpAfterError("(run acai --help for usage)")
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
      outputError: (text, write) => write(rootUsageError(text, ctx.io.argv.slice(2))),
    })
    .action(async (prompt: string | undefined, raw: Record<string, unknown>) => {
      const options: MainOptions = {
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
        projectHooks:
          raw.project === false || raw.projectHooks === false
            ? "off"
            : raw.trustProject === true || raw.trustProjectHooks === true
              ? "trust-once"
              : "require-trust",
      };
      ctx.setExitCode(await handlers.main(options, ctx));
    });
  const operand = firstOperand(ctx.io.argv.slice(2));
  if (operand === "hooks" || operand === "help") {
    const { registerHooksCommand } = await import("./hooks/command.js");
    registerHooksCommand(program, ctx);
  } else {
    // Listed in --help; never dispatched to, since the first operand is not "hooks".
    program.command("hooks").description("inspect and manage hooks (see acai hooks --help)");
  }
  if (operand === "tools" || operand === "help") {
    const { registerToolsCommand } = await import("./commands/tools-list.js");
    registerToolsCommand(program, ctx);
  } else {
    program.command("tools").description("list the tools the model gets (acai tools list)");
  }
  if (operand === "sessions" || operand === "help") {
    const { registerSessionsCommand } = await import("./commands/sessions.js");
    registerSessionsCommand(program, ctx);
  } else {
    program.command("sessions").description("list this project's earlier sessions (acai sessions)");
  }
  if (operand === "agents" || operand === "help") {
    const { registerAgentsCommand } = await import("./commands/agents.js");
    registerAgentsCommand(program, ctx);
  } else {
    program.command("agents").description("list the running agents (acai agents)");
  }
  if (operand === "send" || operand === "help") {
    const { registerSendCommand } = await import("./commands/send.js");
    registerSendCommand(program, ctx);
  } else {
    program
      .command("send")
      .description("send a message to a running agent (acai send NAME MESSAGE)");
  }
  if (operand === "mcp" || operand === "help") {
    const { registerMcpCommand } = await import("./commands/mcp-list.js");
    registerMcpCommand(program, ctx);
  } else {
    program
      .command("mcp")
      .description("list, add and remove MCP servers (acai mcp list | add | remove)");
  }
  if (operand === "doctor" || operand === "help") {
    const { registerDoctorCommand } = await import("./commands/doctor.js");
    registerDoctorCommand(program, ctx);
  } else {
    program
      .command("doctor")
      .description("a short health report: settings, project trust, the OS sandbox in force");
  }
  if (operand === "memory" || operand === "help") {
    const { registerMemoryCommand } = await import("./commands/memory.js");
    registerMemoryCommand(program, ctx);
  } else {
    program
      .command("memory")
      .description("list, search, forget, export saved memories (acai memory --help)");
  }
  return program;
}

/** The value of a root option in `args` (`--name value` or `--name=value`), the last one given. */
function optionValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--") break;
    if (arg === name) value = args[i + 1];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  }
  return value;
}

/**
 * A usage error of the root command: commander has printed it on stderr. When
 * a machine format was asked for (and is itself valid), stdout still ends with
 * the `result` object, as for every other failure before the run.
 */
function writeUsageResult(io: CliIo, message: string, durationMs: number): void {
  const args = io.argv.slice(2);
  const operand = firstOperand(args);
  if (
    operand === "hooks" ||
    operand === "tools" ||
    operand === "mcp" ||
    operand === "sessions" ||
    operand === "agents" ||
    operand === "send" ||
    operand === "help"
  )
    return;
  const format = optionValue(args, "--output-format");
  if (format !== "json" && format !== "stream-json") return;
  const result = resultObject(emptyOutcome(), {
    sessionId: "",
    model: optionValue(args, "--model") ?? "",
    durationMs,
    exitCode: EXIT.usage,
    error: message.trim(),
  });
  io.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Parses argv and runs the chosen command. Never throws; returns the exit code. */
export async function runProgram(ctx: CommandContext, handlers: ProgramHandlers): Promise<number> {
  const started = Date.now();
  let code: number = EXIT.ok;
  const context: CommandContext = {
    io: ctx.io,
    setExitCode: (value) => {
      code = value;
      ctx.setExitCode(value);
    },
  };
  try {
    const program = await buildProgram(context, handlers);
    await program.parseAsync([...ctx.io.argv], { from: "node" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version")
        return EXIT.ok;
      // `acai help`, `acai hooks help`: help asked for (exit 0), not help after a missing command.
      if (error.code === "commander.help" && error.exitCode === 0) return EXIT.ok;
      writeUsageResult(ctx.io, error.message.replace(/^error: /, ""), Date.now() - started);
      return EXIT.usage;
    }
    const debug = ctx.io.env.ACAI_DEBUG === "1";
    ctx.io.stderr.write(`acai: error: ${formatUnexpected(error, debug)}\n`);
    return EXIT.error;
  }
}
