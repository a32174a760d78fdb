import { fileURLToPath } from "node:url";

/**
 * The demo replay file that ships with acai (`examples/replay/demo.json`, in
 * the repository and in the npm package alike), as an absolute path: the
 * offline hint then works from any folder, not only inside a clone of acai.
 * This module sits two levels below the package root in `source/` and `dist/`.
 */
export function demoReplayFile(): string {
  return fileURLToPath(new URL("../../examples/replay/demo.json", import.meta.url));
}

/** `--model replay:/…/examples/replay/demo.json`, quoted for a POSIX shell when it needs it. */
export function offlineHint(): string {
  const word = `replay:${demoReplayFile()}`;
  return `--model ${/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`}`;
}
