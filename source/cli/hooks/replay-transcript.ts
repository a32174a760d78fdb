/**
 * `acai hooks replay`'s input: a session transcript read back as the agent
 * events it recorded, each with the verdict the agent applied, and the
 * transcript found from a file or a session id.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { AgentEvent } from "../../agent/events.js";
import type { Verdict } from "../../agent/verdicts.js";
import { inertText } from "../../terminal/inert-text.js";
import { UsageError } from "../errors.js";

export interface RecordedEvent {
  /** 1-based position among the transcript's events. */
  index: number;
  line: number;
  event: AgentEvent;
  applied?: Verdict;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const CONVERSATION_LINE_TYPES = new Set(["user", "assistant", "compact_boundary"]);

/** Parses a JSONL transcript; a line that is not an event or a verdict is reported with its number. */
export function parseTranscript(text: string, file: string): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, i) => {
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      // A torn last line (the session was killed mid-write) is expected; anything else is not.
      if (i >= lines.length - 2) return;
      throw new UsageError(
        `${file}:${i + 1} is not JSON; is this an acai transcript (<ACAI_HOME>/transcripts/*.jsonl)?`,
      );
    }
    if (isObject(value) && isObject(value.event) && typeof value.event.type === "string") {
      events.push({
        index: events.length + 1,
        line: i + 1,
        event: value.event as unknown as AgentEvent,
      });
    } else if (isObject(value) && isObject(value.verdict) && typeof value.for === "string") {
      // The verdict belongs to the latest event of its type: events raised while
      // the gate waited (a notification when the user is asked) may sit between.
      const gate = events.findLast((e) => e.event.type === value.for);
      if (gate && gate.applied === undefined) gate.applied = value.verdict as unknown as Verdict;
    } else if (isObject(value) && CONVERSATION_LINE_TYPES.has(String(value.type))) {
      // The conversation (Claude Code's shape) and compaction boundaries: not events to replay.
    } else {
      throw new UsageError(
        `${file}:${i + 1} is neither an agent event nor a verdict; is this an acai transcript?`,
      );
    }
  });
  if (events.length === 0) throw new UsageError(`${file} holds no recorded events.`);
  return events;
}

export async function resolveTranscript(
  target: string,
  cwd: string,
  transcriptsDir: string,
): Promise<string> {
  const direct = path.resolve(cwd, target);
  if (
    await readFile(direct).then(
      () => true,
      () => false,
    )
  )
    return direct;
  // A session id, or the start of one (`acai hooks log` prints 8 characters).
  const names = await readdir(transcriptsDir).catch(() => [] as string[]);
  const found = transcriptOfSession(names, target, transcriptsDir);
  if (found) return path.join(transcriptsDir, found);
  throw new UsageError(
    `no transcript ${inertText(target)}: give a transcript file or a session id, or its start as \`acai hooks log\` prints it (transcripts are in ${transcriptsDir}).`,
  );
}

/** `<YYYY-MM-DD>-<session id>.jsonl` → the session id. */
const TRANSCRIPT_NAME = /^\d{4}-\d{2}-\d{2}-(.+)\.jsonl$/;

/**
 * The transcript of the session whose id is `target` or starts with it (the
 * newest file when a session has several); a prefix that fits several
 * sessions is an error listing them.
 */
function transcriptOfSession(
  names: readonly string[],
  target: string,
  transcriptsDir: string,
): string | undefined {
  if (target === "") return undefined;
  const bySession = new Map<string, string[]>();
  for (const name of names) {
    const id = TRANSCRIPT_NAME.exec(name)?.[1];
    if (id === undefined || !id.startsWith(target)) continue;
    bySession.set(id, [...(bySession.get(id) ?? []), name]);
  }
  const exact = bySession.get(target);
  const files = exact ?? (bySession.size === 1 ? [...bySession.values()][0] : undefined);
  if (files !== undefined) return [...files].sort().at(-1);
  if (bySession.size === 0) return undefined;
  const candidates = [...bySession.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([id, ids]) =>
        `  ${inertText(id)}  (${inertText(path.join(transcriptsDir, [...ids].sort().at(-1) ?? ""))})`,
    );
  throw new UsageError(
    `session id ${inertText(target)} is ambiguous: ${bySession.size} sessions start with it:\n${candidates.join("\n")}\nGive more of the id.`,
  );
}
