/**
 * `acai sessions show ID [--json]`: one session's summary — prompts and how
 * each turn ended, every tool call with its outcome and, from the hooks audit
 * log, every hook considered for it (which ran, what each answered, what the
 * chain decided, why the others did not run), tokens and cost, how the
 * session ended. The transcript (session/resume/summary.ts) and the audit log
 * (cli/hooks/why-explain.ts) are read as untrusted data.
 */
import type { CommandContext } from "../command-context.js";
import { EXIT } from "../exit-codes.js";
import type { SessionReport } from "./session-show-text.js";

/** A transcript larger than this is not summarized (as `--resume` reads it back). */
const MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024;

export async function showSession(
  ctx: CommandContext,
  id: string,
  options: { json: boolean },
): Promise<number> {
  const { io } = ctx;
  const { resolveAcaiPaths } = await import("../../config/paths.js");
  const paths = resolveAcaiPaths({ env: io.env, homeDir: io.homeDir, cwd: io.cwd });
  const located = await locate(id.trim(), paths.transcriptsDir);
  if (located.kind !== "found") {
    io.stderr.write(`acai sessions show ${located.message}\n`);
    return EXIT.usage;
  }
  const report = await reportOf(ctx, paths, located);
  const text = await import("./session-show-text.js");
  io.stdout.write(options.json ? text.sessionJson(report) : text.sessionText(report));
  return EXIT.ok;
}

type Located =
  | { kind: "found"; id: string; file: string; text: string }
  | { kind: "error"; message: string };

async function locate(id: string, transcriptsDir: string): Promise<Located> {
  const [{ findSessionFile, ambiguousIds }, { readRegularFileSync }, { inertText }] =
    await Promise.all([
      import("../../session/resume/find.js"),
      import("../../config/read-regular-file.js"),
      import("../../terminal/inert-text.js"),
    ]);
  const shown = inertText(JSON.stringify(id));
  const found = findSessionFile(id, transcriptsDir);
  switch (found.kind) {
    case "none":
      return {
        kind: "error",
        message: `${shown}: no session with that id in ${inertText(transcriptsDir)}. acai sessions lists this project's sessions (run it in the project's folder); a unique start of the id is enough.`,
      };
    case "ambiguous":
      return {
        kind: "error",
        message: `${shown}: several sessions start with it (${ambiguousIds(found.ids)}); give more of the id.`,
      };
    case "found": {
      const read = readRegularFileSync(found.file, MAX_TRANSCRIPT_BYTES);
      if (read.ok) return { ...found, text: read.data.toString("utf8") };
      return {
        kind: "error",
        message: `${shown}: cannot read ${inertText(found.file)}: ${read.problem === "missing" ? "it is gone" : read.reason}.`,
      };
    }
  }
}

async function reportOf(
  ctx: CommandContext,
  paths: { home: string },
  located: Extract<Located, { kind: "found" }>,
): Promise<SessionReport> {
  const [{ summarizeTranscript }, { sessionAudit }] = await Promise.all([
    import("../../session/resume/summary.js"),
    import("./session-audit.js"),
  ]);
  const summary = summarizeTranscript(located.text);
  const sessionId = summary.sessionId ?? located.id;
  const [audit, price] = await Promise.all([
    sessionAudit(paths.home, sessionId),
    priceOf(ctx, paths.home, summary.model),
  ]);
  return { sessionId, file: located.file, summary, audit, price };
}

/** What the session's model costs by the user's own settings (`pricing`, base URL), if acai knows. */
async function priceOf(ctx: CommandContext, acaiHome: string, model: string | undefined) {
  if (model === undefined) return undefined;
  const [{ loadSettings }, { sessionPrice }] = await Promise.all([
    import("../../config/load-settings.js"),
    import("../../models/pricing.js"),
  ]);
  const { io } = ctx;
  try {
    const loaded = await loadSettings({ acaiHome, projectDir: io.cwd, includeProject: false });
    return sessionPrice({
      modelId: model,
      baseUrlFlag: undefined,
      settings: loaded.user,
      env: io.env,
    });
  } catch {
    // A settings file acai cannot read: no cost shown; the session commands say why.
    return undefined;
  }
}
