/**
 * `acai sessions [--json]`: this project's earlier sessions, newest first —
 * id, when it was last used, turns, model, first prompt — to pick one for
 * `acai --resume ID` (a unique prefix of the id is enough); `acai sessions
 * show ID` is one session's summary (session-show.ts).
 */
import type { Command } from "commander";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { EXIT } from "../exit-codes.js";
import { runToolkitCommand } from "./run-command.js";

export interface ListedSession {
  session_id: string;
  last_used: string;
  turns: number;
  model: string;
  first_prompt: string;
}

const PROMPT_COLUMNS = 60;

async function listSessions(
  ctx: CommandContext,
): Promise<{ project: string; sessions: ListedSession[] }> {
  const [{ resolveAcaiPaths }, { findProjectRoot }, { listProjectSessions }] = await Promise.all([
    import("../../config/paths.js"),
    import("../../project/root.js"),
    import("../../session/resume/find.js"),
  ]);
  const { io } = ctx;
  const paths = resolveAcaiPaths({ env: io.env, homeDir: io.homeDir, cwd: io.cwd });
  const root = findProjectRoot({ cwd: io.cwd, acaiHome: paths.home });
  const sessions = listProjectSessions(paths.transcriptsDir, root.dir, 50).map((record) => ({
    session_id: record.sessionId ?? "",
    last_used: record.lastAt ?? "",
    turns: record.turns,
    model: record.model ?? "",
    first_prompt: record.firstPrompt ?? "",
  }));
  return { project: root.dir, sessions };
}

function oneLine(text: string, columns: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > columns ? `${flat.slice(0, columns - 1)}…` : flat;
}

export function formatSessions(listing: { project: string; sessions: ListedSession[] }): string {
  if (listing.sessions.length === 0) {
    return `No earlier sessions of ${inertText(listing.project)}.\n`;
  }
  const lines = listing.sessions.map((s) =>
    [
      s.session_id.slice(0, 8),
      s.last_used.replace("T", " ").slice(0, 16),
      `${s.turns} turn${s.turns === 1 ? "" : "s"}`.padEnd(9),
      inertText(s.model).padEnd(20),
      inertText(oneLine(s.first_prompt, PROMPT_COLUMNS)),
    ].join("  "),
  );
  return `${lines.join("\n")}\n\nContinue one with: acai --resume ID (or acai -c for the latest).\n`;
}

export function registerSessionsCommand(program: Command, ctx: CommandContext): Command {
  const sessions = program
    .command("sessions")
    .description("list this project's earlier sessions: id, time, turns, model, first prompt")
    .option("--json", "print JSON for scripts", false)
    .action((raw: { json: boolean }) =>
      runToolkitCommand(ctx, async () => {
        const listing = await listSessions(ctx);
        ctx.io.stdout.write(
          raw.json ? `${jsonForTerminal(listing, 2)}\n` : formatSessions(listing),
        );
        return EXIT.ok;
      }),
    );
  sessions
    .command("show")
    .description(
      "one session's summary: prompts, tool calls and their outcomes, every hook considered for each call and what it answered, tokens and cost, how it ended",
    )
    .argument("<id>", "the session id (as acai sessions lists it; a unique start is enough)")
    .option("--json", "print JSON for scripts", false)
    .action((id: string, raw: { json: boolean }) =>
      runToolkitCommand(ctx, async () => {
        const { showSession } = await import("./session-show.js");
        // `--json` after the id is the parent's option to commander: either counts.
        const json = raw.json || sessions.opts<{ json: boolean }>().json;
        return showSession(ctx, id, { json });
      }),
    );
  return sessions;
}
