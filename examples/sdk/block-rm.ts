/**
 * acai's loop in a program, with a hook written as a function: it blocks
 * every Bash command that runs `rm`, and the program sees the block.
 *
 *   node examples/sdk/block-rm.ts "clean up the build folder"
 *
 * The model comes from your settings or environment; `ACAI_MODEL` overrides
 * it (`replay:FILE` runs offline). See docs/sdk.md.
 */
import { query } from "acai-agent";

const prompt = process.argv[2] ?? "Remove the build folder.";

for await (const event of query({
  prompt,
  options: {
    ...(process.env.ACAI_MODEL ? { model: process.env.ACAI_MODEL } : {}),
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            async function noRm(input) {
              const command = String((input.tool_input as { command?: string }).command ?? "");
              if (/\brm\b/.test(command)) {
                return { decision: "block", reason: "rm is not allowed from this program" };
              }
              return undefined;
            },
          ],
        },
      ],
    },
  },
})) {
  if (event.type === "tool_call_error" && event.blocked) {
    console.log(`blocked ${event.toolName}: ${event.error}`);
  }
  if (event.type === "turn_end") console.log(`turn ended: ${event.stopReason}: ${event.text}`);
}
