/**
 * Hook text over a cap is spilled, not cut (as Codex does): the whole text
 * goes to a file of the session's own folder under ACAI_HOME
 * (`sessions/<session id>/hook-output/`, folders 0700, files 0600, created
 * exclusively) and the model or the user gets its beginning and the file's
 * path, within `cap` characters. The folder goes with the run (`clean()`). A text that
 * cannot be written is cut as before, and the note says why.
 */
import { closeSync, openSync, rmdirSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { ensurePrivateDirSync, PRIVATE_FILE_MODE } from "../../config/private-files.js";
import { capText } from "../contract/decision.js";

/** Which text of an answer: `context`, `reason`, `message`, `output`, `prompt`. */
type SpilledText = "context" | "reason" | "message" | "output" | "prompt";

export interface Spill {
  /** `text` as it is when it fits `cap`; else its beginning and where all of it is, within `cap`. */
  text(text: string, what: SpilledText, cap: number, hookName: string): string;
  /** Removes the session's spill folder (the run ended). */
  clean(): void;
}

export interface SpillOptions {
  acaiHome: string;
  /** The session's id; known once session_start ran (before that: `unknown-session`). */
  sessionId: () => string;
}

/** The folder a session's spilled texts go to. */
export function spillDir(acaiHome: string, sessionId: string): string {
  return path.join(acaiHome, "sessions", safeName(sessionId || "unknown-session"), "hook-output");
}

export function createSpill(options: SpillOptions): Spill {
  let count = 0;
  const written = new Set<string>();
  return {
    text(text, what, cap, hookName) {
      if (text.length <= cap) return text;
      const dir = spillDir(options.acaiHome, options.sessionId());
      count++;
      const file = path.join(dir, `${count}-${safeName(hookName)}-${what}.txt`);
      try {
        ensurePrivateDirSync(dir);
        writeExclusive(file, text);
        written.add(dir);
      } catch (error) {
        const why = (error as Error).message;
        return `${capText(text, cap, what)} (the whole text could not be written to ${file}: ${why})`;
      }
      const note = `\n… [${what} of hook "${hookName}" over ${cap} characters: all ${text.length} are in ${file}]`;
      // The preview and the note together stay within the cap, so nothing later cuts the path off.
      return `${text.slice(0, Math.max(0, cap - note.length))}${note}`;
    },
    clean() {
      for (const dir of written) {
        rmSync(dir, { recursive: true, force: true });
        try {
          rmdirSync(path.dirname(dir)); // the session's folder, when nothing else is in it
        } catch {
          // Not empty, or already gone.
        }
      }
      written.clear();
    },
  };
}

/** A new file (never an existing one, never through a link), 0600. */
function writeExclusive(file: string, text: string): void {
  const fd = openSync(file, "wx", PRIVATE_FILE_MODE);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** A name safe as one path component: letters, digits, `.`, `_`, `-` (at most 60). */
function safeName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 60);
  return safe === "" || /^\.+$/.test(safe) ? "_" : safe;
}
