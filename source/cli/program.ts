import { Command, CommanderError } from "commander";
import type { CommandContext } from "./command-context.js";
import { formatUnexpected } from "./errors.js";
import { EXIT, EXIT_CODES_HELP } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { addMainOptions, type MainOptions, mainOptionsOf } from "./main-options.js";
import { emptyOutcome } from "./outcome.js";
import { resultObject } from "./print.js";
import { firstOperand, quoteThePromptError } from "./root-args.js";
import { registerSubcommands } from "./subcommands.js";

export { firstOperand };

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

export interface ProgramHandlers {
  main(options: MainOptions, ctx: CommandContext): Promise<number>;
}

/** A usage error as printed: `acai: error: …`; a prompt typed without quotes gets the quoting hint. */
function rootUsageError(text: string, args: readonly string[]): string {
  const excess = /^error: too many arguments\. /.test(text) && firstOperand(args) !== "hooks";
  return (excess ? quoteThePromptError(args) : text).replace(/^error: /, "acai: error: ");
}

/**
 * Builds the program: the root command's options (main-options.ts), then one
 * registrar per subcommand (subcommands.ts), loaded only when that command is
 * asked for: `acai -p` start-up does not pay for them.
 */
async function buildProgram(ctx: CommandContext, handlers: ProgramHandlers): Promise<Command> {
  const program = new Command("acai");
  program
    .description("A terminal coding agent built around a hooks middleware.")
    .version(ctx.io.version, "-v, --version", "print the version")
    .helpOption("-h, --help", "show this help");
  addMainOptions(program)
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
      ctx.setExitCode(await handlers.main(mainOptionsOf(prompt, raw), ctx));
    });
  await registerSubcommands(program, ctx, firstOperand(ctx.io.argv.slice(2)));
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
