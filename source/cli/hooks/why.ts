/**
 * `acai hooks why <tool_call_id>` (issue 24): for one tool call, every hook
 * considered, which ran, what each answered, what the chain decided, and why
 * each other hook did not run — read from the audit log's run lines and its
 * `considered` lines (hooks/run/considered.ts).
 */
import type { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { runToolkitCommand } from "../commands/run-command.js";
import { EXIT } from "../exit-codes.js";

interface WhyOptions {
  session?: string;
}

export function registerHooksWhy(hooks: Command, ctx: CommandContext): void {
  hooks
    .command("why")
    .description(
      "explain one tool call's hooks from the audit log: which ran, what each answered, what was decided, why the others did not run",
    )
    .argument(
      "<tool_call_id>",
      "the tool call's id (as in stream-json, the transcript or acai hooks log --json)",
    )
    .option(
      "--session <id>",
      "the session (a prefix is enough); default: the latest with that call",
    )
    .action((toolCallId: string, raw: WhyOptions) =>
      runToolkitCommand(ctx, () => explain(ctx, toolCallId, raw)),
    );
}

async function explain(ctx: CommandContext, toolCallId: string, raw: WhyOptions): Promise<number> {
  const { io } = ctx;
  const [
    { resolveAcaiPaths },
    { auditLogPath },
    { auditLines, parseJson },
    { whyLineOf },
    { whyText },
  ] = await Promise.all([
    import("../../config/paths.js"),
    import("../../hooks/run/audit.js"),
    import("./audit-lines.js"),
    import("./why-explain.js"),
    import("./why-text.js"),
  ]);
  const file = auditLogPath(
    resolveAcaiPaths({ env: io.env, homeDir: io.homeDir, cwd: io.cwd }).home,
  );
  const bySession = new Map<string, ReturnType<typeof whyLineOf>[]>();
  const needle = JSON.stringify(toolCallId);
  for await (const text of auditLines(file)) {
    // Cheap first: only lines naming the id are parsed.
    if (!text.includes(needle)) continue;
    const line = whyLineOf(parseJson(text), toolCallId);
    if (line === undefined) continue;
    const session = line.line.session;
    if (raw.session !== undefined && !session.startsWith(raw.session)) continue;
    // Latest session last: a session seen again moves to the end.
    const lines = bySession.get(session) ?? [];
    bySession.delete(session);
    bySession.set(session, [...lines, line]);
  }
  const latest = [...bySession.entries()].at(-1);
  if (latest === undefined) {
    const which = raw.session === undefined ? "" : ` in session ${raw.session}`;
    io.stderr.write(
      `acai: no hook considered tool call ${JSON.stringify(toolCallId)}${which} in ${file}. Check the id (acai hooks log --json shows tool_call_id), or whether any hook listens to tool events.\n`,
    );
    return EXIT.usage;
  }
  const [session, lines] = latest;
  io.stdout.write(
    `${whyText(
      toolCallId,
      session,
      lines.filter((l) => l !== undefined),
    )}\n`,
  );
  return EXIT.ok;
}
