/** `acai hooks log [--session ID] [--follow] [-n N] [--json]`: the hooks audit log, readable. */
import { open, stat } from "node:fs/promises";
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import type { AuditEntry } from "../../hooks/run/audit.js";
import { meaningfulErrorLine } from "../../process/error-output.js";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { runToolkitCommand } from "../commands/run-command.js";
import { EXIT } from "../exit-codes.js";

const FOLLOW_POLL_MS = 250;

function parseCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError("must be a whole number (0 = everything).");
  }
  return n;
}

function isEntry(value: unknown): value is AuditEntry {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as AuditEntry).hook === "string" &&
    typeof (value as AuditEntry).event === "string"
  );
}

function isConsideredLine(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { kind?: unknown }).kind === "considered"
  );
}

/** Entries of complete lines; a line that is not an audit entry is skipped (counted). */
function parseAuditLines(text: string): { entries: AuditEntry[]; skipped: number } {
  const entries: AuditEntry[] = [];
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isEntry(value)) entries.push(value);
      // A `considered` line (which hooks did not run, and why) is for `acai hooks why`.
      else if (!isConsideredLine(value)) skipped++;
    } catch {
      skipped++;
    }
  }
  return { entries, skipped };
}

/** One line of at most `max` characters, inert (hook text: reasons, logs, stderr). */
function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return inertText(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

export function formatAuditEntry(entry: AuditEntry): string {
  const time = entry.time
    .replace("T", " ")
    .replace(/\.\d+Z$/, "")
    .replace(/Z$/, "");
  const session = entry.session ? entry.session.slice(0, 8) : "--------";
  const what: string[] = [entry.decision];
  if (entry.effect) what.push(`→ ${entry.effect}`);
  const facts: string[] = [
    entry.exit_code === null ? (entry.signal ?? "no exit") : `exit ${entry.exit_code}`,
    `${entry.duration_ms} ms`,
  ];
  if (entry.timed_out) facts.push("TIMED OUT");
  if (entry.killed) facts.push("killed: output cap");
  if (entry.aborted) facts.push("aborted");
  if (entry.async) facts.push("async");
  // Names and fields come from hooks (project ones too) via the log: inert.
  let line = inertText(
    `${time}  ${session}  ${entry.event.padEnd(18)} ${entry.hook} [${entry.scope} ${entry.source}]  ${what.join(" ")} (${facts.join(", ")})`,
  );
  const detail = entry.error ?? entry.reason;
  if (detail) line += `\n    ${oneLine(detail, 200)}`;
  if (entry.log) line += `\n    log: ${oneLine(entry.log, 200)}`;
  const stderr = entry.decision === "failed" ? meaningfulErrorLine(entry.stderr ?? "", 200) : "";
  if (stderr !== "" && !detail?.includes(stderr)) line += `\n    stderr: ${inertText(stderr)}`;
  if (typeof entry.note === "string") line += `\n    note: ${oneLine(entry.note, 300)}`;
  return line;
}

interface LogOptions {
  session?: string;
  follow: boolean;
  lines: number;
  json: boolean;
}

export function registerHooksLog(hooks: Command, ctx: CommandContext): void {
  hooks
    .command("log")
    .description("show the hooks audit log (one line per hook run)")
    .option("--session <id>", "only this session (a prefix is enough)")
    .option("-f, --follow", "keep printing new runs as they happen (Ctrl-C to stop)", false)
    .option("-n, --lines <n>", "show the last N runs (0 = all)", parseCount, 100)
    .option("--json", "print the raw JSON lines", false)
    .action((raw: LogOptions) => runToolkitCommand(ctx, () => showLog(ctx, raw)));
}

async function showLog(ctx: CommandContext, raw: LogOptions): Promise<number> {
  const { io } = ctx;
  const [{ resolveAcaiPaths }, { auditLogPath }] = await Promise.all([
    import("../../config/paths.js"),
    import("../../hooks/run/audit.js"),
  ]);
  const home = resolveAcaiPaths({ env: io.env, homeDir: io.homeDir, cwd: io.cwd }).home;
  const file = auditLogPath(home);
  const log = new LogReader(
    file,
    (entry) => raw.session === undefined || entry.session.startsWith(raw.session),
  );
  const show = (entry: AuditEntry) =>
    io.stdout.write(`${raw.json ? jsonForTerminal(entry) : formatAuditEntry(entry)}\n`);
  const first = await log.readMore();
  const shown = raw.lines === 0 ? first : first.slice(-raw.lines);
  if (shown.length === 0 && !raw.follow) {
    io.stdout.write(
      first.length === 0 && log.offset === 0
        ? `No hook runs recorded yet (${file}).\n`
        : `No hook runs${raw.session ? ` for session ${raw.session}` : ""} in ${file}.\n`,
    );
    return EXIT.ok;
  }
  if (!raw.json && first.length > shown.length) {
    io.stdout.write(
      `… ${first.length - shown.length} earlier run(s) not shown (use -n 0 for all)\n`,
    );
  }
  for (const entry of shown) show(entry);
  if (!raw.follow) return EXIT.ok;
  if (!raw.json) io.stderr.write(`(following ${file}; Ctrl-C to stop)\n`);
  await followLog(io, log, show);
  return EXIT.ok;
}

/** The audit log read as it grows: each read returns the entries appended since the last. */
class LogReader {
  offset = 0;
  private pending = "";

  constructor(
    private readonly file: string,
    private readonly keep: (entry: AuditEntry) => boolean,
  ) {}

  /** Reads what was appended since `offset`; keeps a torn last line for the next read. */
  async readMore(): Promise<AuditEntry[]> {
    const size = await stat(this.file).then(
      (s) => s.size,
      () => undefined,
    );
    if (size === undefined) return [];
    if (size < this.offset) {
      this.offset = 0; // truncated or replaced: start over
      this.pending = "";
    }
    if (size === this.offset) return [];
    const handle = await open(this.file, "r");
    try {
      const buffer = Buffer.alloc(size - this.offset);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
      this.offset += bytesRead;
      const text = this.pending + buffer.subarray(0, bytesRead).toString("utf8");
      const cut = text.lastIndexOf("\n");
      this.pending = cut === -1 ? text : text.slice(cut + 1);
      return parseAuditLines(cut === -1 ? "" : text.slice(0, cut)).entries.filter(this.keep);
    } finally {
      await handle.close();
    }
  }
}

/** Shows new runs every FOLLOW_POLL_MS until SIGINT or SIGTERM. */
function followLog(
  io: CommandContext["io"],
  log: LogReader,
  show: (entry: AuditEntry) => void,
): Promise<void> {
  return new Promise<void>((resolve) => {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      log
        .readMore()
        .then((entries) => {
          for (const entry of entries) show(entry);
        })
        .catch(() => undefined)
        .finally(() => {
          busy = false;
        });
    }, FOLLOW_POLL_MS);
    const stop = () => {
      clearInterval(timer);
      offInt();
      offTerm();
      resolve();
    };
    const offInt = io.onSignal("SIGINT", stop);
    const offTerm = io.onSignal("SIGTERM", stop);
  });
}
