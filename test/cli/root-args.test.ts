import { describe, expect, it } from "vitest";
import { quoteThePromptError } from "../../source/cli/root-args.js";

describe("quoteThePromptError", () => {
  it.each([
    [["-p", "what", "files", "are", "here"], 'acai -p "what files are here"'],
    [["--model", "m", "-p", "fix", "it"], 'acai -p "fix it"'],
    [["--print=fix", "the", "bug"], 'acai -p "fix the bug"'],
    [["fix", "the", "bug", "--verbose"], 'acai "fix the bug"'],
    [["-p", "say", '"hi"', "now"], `acai -p 'say "hi" now'`],
    [["-p", "it's", "$x"], `acai -p 'it'\\''s $x'`],
  ])("%j → %s", (args, example) => {
    expect(quoteThePromptError(args)).toBe(
      `error: too many arguments: the prompt must be one argument; quote the prompt: ${example}\n`,
    );
  });
});
