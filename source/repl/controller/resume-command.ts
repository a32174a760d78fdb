/**
 * `/resume`: lists this project's earlier sessions, numbered; `/resume N` (or
 * an id, a unique prefix is enough) starts a new session that continues it.
 */

import { resolveAcaiPaths } from "../../config/paths.js";
import { listProjectSessions } from "../../session/resume/find.js";
import type { PreparedSession } from "../../session/types.js";
import { inertText } from "../../terminal/inert-text.js";
import type { UiStore } from "./store.js";

/** What `/resume` needs of the controller (slash-commands.ts passes its context). */
export interface ResumeContext {
  store: UiStore;
  session: () => PreparedSession | undefined;
  newSession: (restart: { clear: boolean; resume: string }) => void;
}

const LISTED = 20;

export function resumeSession(target: string | undefined, ctx: ResumeContext): void {
  const { store } = ctx;
  const session = ctx.session();
  if (!session) {
    store.item({ kind: "error", text: "No session is running." });
    return;
  }
  const { transcriptsDir } = resolveAcaiPaths({
    env: { ACAI_HOME: session.acaiHome },
    homeDir: session.acaiHome,
  });
  const sessions = listProjectSessions(transcriptsDir, session.projectDir, LISTED + 1).filter(
    (s) => s.sessionId !== session.sessionId,
  );
  if (target === undefined) {
    if (sessions.length === 0) {
      store.item({ kind: "notice", lines: ["No earlier sessions of this project."] });
      return;
    }
    store.item({
      kind: "notice",
      title: "Sessions of this project (newest first)",
      lines: ["/resume N continues one (or /resume ID)."],
      table: sessions
        .slice(0, LISTED)
        .map((s, i) => [
          `${i + 1}  ${(s.sessionId ?? "").slice(0, 8)}`,
          `${(s.lastAt ?? "").replace("T", " ").slice(0, 16)} · ${s.turns} turn${s.turns === 1 ? "" : "s"} · ${inertText(s.model ?? "")} · ${inertText((s.firstPrompt ?? "").replace(/\s+/g, " ").slice(0, 60))}`,
        ]),
    });
    return;
  }
  const index = /^\d{1,3}$/.test(target) ? Number(target) : undefined;
  const id = index !== undefined ? sessions[index - 1]?.sessionId : target;
  if (!id) {
    store.item({ kind: "error", text: `No session ${inertText(target)}: /resume lists them.` });
    return;
  }
  store.item({
    kind: "banner",
    tone: "info",
    text: `Resuming session ${inertText(id.slice(0, 8))}…`,
  });
  // Not cleared: the list and this line stay above the resumed session.
  ctx.newSession({ clear: false, resume: id });
}
