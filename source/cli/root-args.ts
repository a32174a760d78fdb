/**
 * What the root command's raw arguments say before commander parses them: the
 * first operand (a subcommand name or the prompt), and the words of a prompt
 * typed without quotes, for the hint that says to quote it.
 */

/** Root options that take a value (the next argument, unless given as `--opt=value`). */
const VALUE_OPTIONS = new Set([
  "-p",
  "--print",
  "--output-format",
  "--max-steps",
  "--model",
  "--base-url",
]);

const PRINT_OPTIONS = new Set(["-p", "--print"]);

/** The first argument that is not an option or an option's value: a subcommand name or the prompt. */
export function firstOperand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--") return args[i + 1];
    if (!arg.startsWith("-")) return arg;
    if (VALUE_OPTIONS.has(arg)) {
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith("-")) i++;
    }
  }
  return undefined;
}

/** The prompt's words in order (`-p`'s value, then the operands), and whether `-p` was given. */
function promptWords(args: readonly string[]): { words: string[]; print: boolean } {
  const words: string[] = [];
  let print = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--") {
      words.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--print=")) {
      print = true;
      words.push(arg.slice("--print=".length));
    } else if (!arg.startsWith("-")) {
      words.push(arg);
    } else if (VALUE_OPTIONS.has(arg)) {
      const next = args[i + 1];
      if (PRINT_OPTIONS.has(arg)) print = true;
      if (next === undefined || next.startsWith("-")) continue;
      i++;
      if (PRINT_OPTIONS.has(arg)) words.push(next);
    }
  }
  return { words, print };
}

/** `text` as one shell word: double quotes unless it holds characters the shell expands there. */
function shellQuote(text: string): string {
  if (!/["$`\\!]/.test(text)) return `"${text}"`;
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The line that replaces commander's "too many arguments" for the root
 * command: the prompt is one argument, so say how to quote it.
 */
export function quoteThePromptError(args: readonly string[]): string {
  const { words, print } = promptWords(args);
  const example = `acai ${print ? "-p " : ""}${shellQuote(words.join(" "))}`;
  return `error: too many arguments: the prompt must be one argument; quote the prompt: ${example}\n`;
}
