/**
 * Hook text over a cap is spilled, not cut (as Codex does): the whole text
 * goes to a file of the session's own folder under ACAI_HOME
 * (`sessions/<session id>/hook-output/`, folders 0700, files 0600, created
 * exclusively) and the model or the user gets its beginning and the file's
 * path, within `cap` characters. The files stay with the session (a resumed
 * session's transcript still names them); a resumed session numbers its new
 * files after the ones there. A text that cannot be written is cut as before,
 * and the note says why.
 *
 * `boundDecision` is the one place every hook kind's answer is held to its
 * caps (run.ts calls it for every record, whatever ran the hook).
 */
import { closeSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { ensurePrivateDirSync, PRIVATE_FILE_MODE } from "../../config/private-files.js";
import { capDecisionTexts, capText, type Decision } from "../contract/decision.js";

/** Which text of an answer: `context`, `reason`, `message`, `output`, `prompt`. */
type SpilledText = "context" | "reason" | "message" | "output" | "prompt";

export interface Spill {
  /** `text` as it is when it fits `cap`; else its beginning and where all of it is, within `cap`. */
  text(text: string, what: SpilledText, cap: number, hookName: string): string;
}

export interface SpillOptions {
  acaiHome: string;
  /** The session's id; known once session_start ran (before that: `unknown-session`). */
  sessionId: () => string;
}

/** How many taken names a spill steps over before it gives up (a resumed session's earlier files). */
const MAX_NAME_TRIES = 10_000;

/** The folder a session's spilled texts go to. */
export function spillDir(acaiHome: string, sessionId: string): string {
  return path.join(acaiHome, "sessions", safeName(sessionId || "unknown-session"), "hook-output");
}

export function createSpill(options: SpillOptions): Spill {
  let count = 0;
  return {
    text(text, what, cap, hookName) {
      if (text.length <= cap) return text;
      const dir = spillDir(options.acaiHome, options.sessionId());
      let file = "";
      try {
        ensurePrivateDirSync(dir);
        for (let tries = 0; ; tries++) {
          if (tries >= MAX_NAME_TRIES) throw new Error(`${MAX_NAME_TRIES} names there are taken`);
          count++;
          file = path.join(dir, `${count}-${safeName(hookName)}-${what}.txt`);
          if (writeExclusive(file, text)) break;
        }
      } catch (error) {
        const why = (error as Error).message;
        return `${capText(text, cap, what)} (the whole text could not be written to ${file || dir}: ${why})`;
      }
      const note = `\n… [${what} of hook "${hookName}" over ${cap} characters: all ${text.length} are in ${file}]`;
      // The preview and the note together stay within the cap, so nothing later cuts the path off.
      return `${text.slice(0, Math.max(0, cap - note.length))}${note}`;
    },
  };
}

/**
 * A hook's answer held to its caps, whatever kind of hook gave it: the texts
 * the model or the user reads spilled when the session spills (else cut),
 * the context spilled past `contextCapChars` (else left to the context cap
 * where it is collected), the audit's `log` and `error` always cut.
 */
export function boundDecision(
  decision: Decision,
  hookName: string,
  bounds: { spill?: Spill; contextCapChars?: number },
): Decision {
  const { spill, contextCapChars } = bounds;
  if (spill === undefined) return capDecisionTexts(decision);
  const out = capDecisionTexts(decision, (text, field, cap) =>
    spill.text(text, field, cap, hookName),
  );
  const context = out.context;
  if (contextCapChars === undefined || context === undefined || context.length <= contextCapChars)
    return out;
  return { ...out, context: spill.text(context, "context", contextCapChars, hookName) };
}

/**
 * A new file (never an existing one, never through a link), 0600: false when
 * the name is taken (an earlier run of this session spilled under it).
 */
function writeExclusive(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "wx", PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** A name safe as one path component: letters, digits, `.`, `_`, `-` (at most 60). */
function safeName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 60);
  return safe === "" || /^\.+$/.test(safe) ? "_" : safe;
}
