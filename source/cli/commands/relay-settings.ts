/**
 * The relay settings `acai agents` and `acai send` use: the user's, and a
 * trusted project's over them (an untrusted project's settings never apply).
 */
import { inertText } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { UsageError } from "../errors.js";

export async function relayForCommand(ctx: CommandContext) {
  const { io } = ctx;
  const [
    { assessProject },
    { SettingsError },
    { effectiveRelaySettings },
    { openRelay },
    { relayFailure },
  ] = await Promise.all([
    import("../../session/assessment.js"),
    import("../../config/settings.js"),
    import("../../config/relay-settings.js"),
    import("../../relay/open.js"),
    import("./relay-errors.js"),
  ]);
  const project = await assessProject({ cwd: io.cwd, env: io.env, homeDir: io.homeDir }).catch(
    (error: unknown) => {
      throw error instanceof SettingsError ? new UsageError(error.message) : error;
    },
  );
  const settings = effectiveRelaySettings(
    project.loaded.user.relay,
    project.loaded.project.relay,
    project.status === "trusted",
  );
  // A malformed row moved aside, a dropped message: one line each on stderr.
  const onNote = (line: string) => io.stderr.write(`acai: ${inertText(line)}\n`);
  const { transport } = await openRelay({
    acaiHome: project.paths.home,
    settings,
    env: io.env,
    homeDir: io.homeDir,
    onNote,
  }).catch(relayFailure(settings));
  return { transport, settings };
}
