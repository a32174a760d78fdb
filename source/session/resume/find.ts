/**
 * Which earlier session `--continue` and `--resume ID` mean, and the list
 * `acai sessions` prints. Sessions are the transcripts under
 * `<ACAI_HOME>/transcripts/` (`<date>-<sessionId>.jsonl`); a session belongs
 * to the project its working directory was in.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { inertText } from "../../terminal/inert-text.js";
import { readSessionTranscript, type SessionRecord } from "./load.js";

export type ResumeRequest = { kind: "latest" } | { kind: "id"; id: string };

/** A session that cannot be picked up: the message says which and what to do. */
export class ResumeError extends Error {
  override readonly name = "ResumeError";
}

interface TranscriptFile {
  file: string;
  /** The session id the file name carries. */
  id: string;
  mtimeMs: number;
}

const NAME = /^\d{4}-\d{2}-\d{2}-(.+)\.jsonl$/;

/** The transcripts, newest first. */
function transcriptFiles(transcriptsDir: string): TranscriptFile[] {
  let names: string[];
  try {
    names = readdirSync(transcriptsDir);
  } catch {
    return [];
  }
  const files: TranscriptFile[] = [];
  for (const name of names) {
    const match = NAME.exec(name);
    if (!match?.[1]) continue;
    const file = path.join(transcriptsDir, name);
    try {
      const stats = statSync(file);
      if (stats.isFile()) files.push({ file, id: match[1], mtimeMs: stats.mtimeMs });
    } catch {
      // gone meanwhile
    }
  }
  return files.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** The working directory `cwd` is the project root or inside it. */
function inProject(cwd: string | undefined, projectDir: string): boolean {
  if (cwd === undefined) return false;
  const relative = path.relative(projectDir, cwd);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** This project's sessions, newest first, at most `limit` of them (each transcript read bounded). */
export function listProjectSessions(
  transcriptsDir: string,
  projectDir: string,
  limit = 20,
): SessionRecord[] {
  const sessions: SessionRecord[] = [];
  for (const entry of transcriptFiles(transcriptsDir)) {
    if (sessions.length >= limit) break;
    const read = readSessionTranscript(entry.file);
    // A session whose only prompt a hook blocked is one too: its hook's context waits for the next turn.
    const prompted = read.ok && read.record.turns + read.record.blockedPrompts > 0;
    if (read.ok && prompted && inProject(read.record.cwd, projectDir)) {
      sessions.push(read.record);
    }
  }
  return sessions;
}

export function findSessionToResume(
  request: ResumeRequest,
  where: { transcriptsDir: string; projectDir: string },
): SessionRecord {
  if (request.kind === "latest") {
    const [latest] = listProjectSessions(where.transcriptsDir, where.projectDir, 1);
    if (!latest) {
      throw new ResumeError(
        `--continue: no earlier session of this project (${inertText(where.projectDir)}) in ${inertText(where.transcriptsDir)}; start one without --continue.`,
      );
    }
    return latest;
  }
  const id = request.id.trim();
  const found = findSessionFile(id, where.transcriptsDir);
  if (found.kind === "none") {
    throw new ResumeError(
      `--resume ${inertText(id)}: no session with that id in ${inertText(where.transcriptsDir)}; acai sessions lists them.`,
    );
  }
  if (found.kind === "ambiguous") {
    throw new ResumeError(
      `--resume ${inertText(id)} is ambiguous: ${ambiguousIds(found.ids)}; give more of the id.`,
    );
  }
  const read = readSessionTranscript(found.file);
  if (!read.ok) {
    throw new ResumeError(
      `--resume ${inertText(id)}: cannot read ${inertText(found.file)}: ${read.reason}.`,
    );
  }
  return read.record;
}

/** The session ids of an ambiguous prefix, a few of them, for a message. */
export function ambiguousIds(ids: readonly string[]): string {
  return `${ids.slice(0, 5).map(inertText).join(", ")}${ids.length > 5 ? ", …" : ""}`;
}

export type SessionFile =
  | { kind: "found"; id: string; file: string }
  | { kind: "none" }
  | { kind: "ambiguous"; ids: string[] };

/** The transcript of the session whose id is `id` or starts with it (any project's). */
export function findSessionFile(id: string, transcriptsDir: string): SessionFile {
  const matches = transcriptFiles(transcriptsDir).filter((f) => id !== "" && f.id.startsWith(id));
  const ids = [...new Set(matches.map((m) => m.id))];
  const [match] = matches;
  if (match === undefined) return { kind: "none" };
  if (ids.length > 1) return { kind: "ambiguous", ids };
  return { kind: "found", id: match.id, file: match.file };
}
