/**
 * `acai send NAME MESSAGE…`: sends a message to a running agent (or `*`, every
 * running agent) from the shell. To an agent that is not running it is kept
 * (within the retention) and delivered when an agent of that name starts; to
 * a name that never ran here it is refused unless `--queue` is given.
 * Before it goes, the `before_message_send` hooks judge it as they judge an
 * agent's message (session/shell-send.ts): a rewrite is what is sent, a
 * cancel exits 3 naming the hook; an untrusted project's hooks do not run.
 */
import type { Command } from "commander";
import { RELAY_METADATA_CHARS, relayMetadataSchema } from "../../hooks/contract/relay-metadata.js";
import { MAX_MESSAGE_CHARS } from "../../relay/message.js";
import { agentNameProblem } from "../../relay/names.js";
import { defined } from "../../shared/defined.js";
import { inertText } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { CliError, UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import { readAll } from "../io.js";
import { relayFailure } from "./relay-errors.js";
import { relayForCommand } from "./relay-settings.js";
import { runToolkitCommand } from "./run-command.js";

interface SendFlags {
  from: string;
  queue: boolean;
  metadata?: string;
}

export function registerSendCommand(program: Command, ctx: CommandContext): Command {
  return program
    .command("send")
    .description(
      `send a message (at most ${MAX_MESSAGE_CHARS} characters) to the agent NAME, or * for every running agent`,
    )
    .argument("<name>", "the agent (acai agents lists them), or * for every running agent")
    .argument("[message...]", "the message; read from stdin when left out")
    .option("--from <name>", "the sender's name the agent sees", "shell")
    .option(
      "--metadata <json>",
      `a JSON object the receiver's hooks get as the message's metadata (agent-relay's msg.metadata; at most ${RELAY_METADATA_CHARS} characters)`,
    )
    .option(
      "--queue",
      "keep it for a name that has never run here (delivered when it starts)",
      false,
    )
    .action((name: string, words: string[], flags: SendFlags) =>
      runToolkitCommand(ctx, async () => {
        const fromProblem = agentNameProblem(flags.from);
        if (fromProblem) throw new UsageError(`--from: ${fromProblem}.`);
        const metadata = parseMetadataFlag(flags.metadata);
        const typed = words.length > 0 ? words.join(" ") : await readAll(ctx.io.stdin);
        const content = await gated(ctx, { from: flags.from, to: name, content: typed });
        const { transport, settings } = await relayForCommand(ctx);
        try {
          const report = await transport
            .send(
              { from: flags.from, to: name, content, ...defined("metadata", metadata) },
              { allowUnknown: flags.queue },
            )
            .catch(relayFailure(settings));
          const out: string[] = [];
          if (report.delivered.length > 0)
            out.push(`sent to ${report.delivered.map(inertText).join(", ")}`);
          if (report.kept.length > 0)
            out.push(
              `${report.kept.map(inertText).join(", ")} is not running: the message is kept and delivered when an agent of that name starts (within 7 days)`,
            );
          if (out.length === 0)
            throw new CliError("no other agent is running: nothing was sent", EXIT.error);
          ctx.io.stdout.write(`${out.join("\n")}\n`);
          return EXIT.ok;
        } finally {
          await transport.close();
        }
      }),
    );
}

/** The text the before_message_send hooks let go, or a CliError (exit 3) naming the hook that cancelled it. */
async function gated(
  ctx: CommandContext,
  message: { from: string; to: string; content: string },
): Promise<string> {
  const [{ gateShellMessage }, { cancelledText }] = await Promise.all([
    import("../../session/shell-send.js"),
    import("../../session/gated-relay.js"),
  ]);
  const { io } = ctx;
  const { verdict, notes } = await gateShellMessage({
    cwd: io.cwd,
    env: io.env,
    homeDir: io.homeDir,
    message,
  });
  for (const note of notes) io.stderr.write(`acai: ${note}\n`);
  if (verdict.send) return verdict.content;
  throw new CliError(
    `message to ${inertText(message.to)} not sent: ${inertText(cancelledText(verdict))}`,
    EXIT.hookBlocked,
  );
}

/** `--metadata JSON`: a JSON object within the relay's bounds, or a usage error saying what is wrong. */
function parseMetadataFlag(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`--metadata: not JSON (write a JSON object, e.g. '{"urgent": true}').`);
  }
  const parsed = relayMetadataSchema.safeParse(json);
  if (!parsed.success)
    throw new UsageError(`--metadata: ${parsed.error.issues[0]?.message ?? "not valid"}.`);
  return parsed.data;
}
