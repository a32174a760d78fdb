/**
 * Opens a session's relay at session start: the transport the settings name,
 * then the name (`--name`, else the project's name and a short id). A name a
 * running agent holds is an error (NameTakenError); a transport that cannot be
 * reached is a warning, and the session runs without messages.
 */

import { effectiveRelaySettings } from "../config/relay-settings.js";
import type { LoadedSettings } from "../config/settings.js";
import { whenNotBusy } from "../sqlite/when-not-busy.js";
import { defaultAgentName } from "./names.js";
import { noteBuffer } from "./notes.js";
import { openRelay } from "./open.js";
import { joinRelay, type SessionRelay } from "./session-relay.js";
import { NameTakenError } from "./transport.js";

export interface OpenSessionRelayOptions {
  acaiHome: string;
  /** For the secrets `relay.auth` names. */
  env: Readonly<Record<string, string | undefined>>;
  homeDir: string;
  loaded: Pick<LoadedSettings, "user" | "project">;
  includeProject: boolean;
  projectDir: string;
  cwd: string;
  sessionId: string;
  name?: string;
  listening: boolean;
}

export async function openSessionRelay(
  options: OpenSessionRelayOptions,
): Promise<{ relay?: SessionRelay; warnings: string[] }> {
  const settings = effectiveRelaySettings(
    options.loaded.user.relay,
    options.loaded.project.relay,
    options.includeProject,
  );
  if (settings.enabled === false) return { warnings: [] };
  const name = options.name ?? defaultAgentName(options.projectDir);
  const notes = noteBuffer();
  let opened: Awaited<ReturnType<typeof openRelay>>;
  try {
    opened = await whenNotBusy(() =>
      openRelay({
        acaiHome: options.acaiHome,
        settings,
        env: options.env,
        homeDir: options.homeDir,
        onNote: notes.note,
      }),
    );
  } catch (error) {
    return {
      warnings: [`messages between agents are off for this session: ${(error as Error).message}`],
    };
  }
  const { transport } = opened;
  try {
    const relay = await whenNotBusy(() =>
      joinRelay({
        transport,
        name,
        sessionId: options.sessionId,
        cwd: options.cwd,
        projectDir: options.projectDir,
        listening: options.listening,
        notes,
      }),
    );
    return { relay, warnings: opened.warnings };
  } catch (error) {
    await transport.close().catch(() => {});
    if (error instanceof NameTakenError) throw error;
    return {
      warnings: [`messages between agents are off for this session: ${(error as Error).message}`],
    };
  }
}
