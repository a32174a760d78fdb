/**
 * A3S's matchers, in process (`HookEngine.fire`): `tool` an exact name,
 * `path_pattern` a glob on the tool's file path (`*` within a segment, `**`
 * across, `*.ext` at any depth; picomatch, loaded at the first glob),
 * `command_pattern` a regular expression searched in a Bash command,
 * `session_id` one session. Every filter given must hold; a filter whose
 * field the event lacks does not hold.
 */
import type { HookMatcher } from "./builders.js";

export interface PreparedMatcher {
  tool?: string;
  /** The glob, compiled at its first use. */
  path?: { glob: string; test?: (file: string) => boolean };
  command?: RegExp;
  session?: string;
}

/** Checks a matcher once, at registration: an invalid regular expression throws, naming the hook. */
export function prepareMatcher(id: string, matcher: Partial<HookMatcher>): PreparedMatcher {
  const out: PreparedMatcher = {};
  if (matcher.tool !== undefined) out.tool = matcher.tool;
  if (matcher.path_pattern !== undefined) out.path = { glob: matcher.path_pattern };
  if (matcher.session_id !== undefined) out.session = matcher.session_id;
  if (matcher.command_pattern !== undefined) {
    try {
      out.command = new RegExp(matcher.command_pattern);
    } catch (error) {
      throw new TypeError(
        `A3S hook "${id}": command_pattern ${JSON.stringify(matcher.command_pattern)} is not a regular expression (${(error as Error).message})`,
      );
    }
  }
  return out;
}

type Payload = Readonly<Record<string, unknown>>;

function args(payload: Payload): Payload {
  const a = payload.args;
  return typeof a === "object" && a !== null ? (a as Payload) : {};
}

/** Hook processes importing `acai-agent/hooks` do not load picomatch unless a glob is used. */
async function globTest(
  path: NonNullable<PreparedMatcher["path"]>,
): Promise<(file: string) => boolean> {
  if (path.test === undefined) {
    const picomatch = (await import("picomatch")).default;
    path.test = picomatch(path.glob, { dot: true, basename: !path.glob.includes("/") });
  }
  return path.test;
}

export async function matches(m: PreparedMatcher, payload: Payload): Promise<boolean> {
  if (m.tool !== undefined && payload.tool !== m.tool) return false;
  if (m.session !== undefined && payload.session_id !== m.session) return false;
  const a = args(payload);
  if (m.command !== undefined) {
    if (typeof a.command !== "string" || !m.command.test(a.command)) return false;
  }
  if (m.path !== undefined) {
    const file = a.file_path ?? a.path;
    if (typeof file !== "string" || !(await globTest(m.path))(file)) return false;
  }
  return true;
}
