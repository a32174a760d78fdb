/**
 * What the Bash tool adds to its commands' environment so that git does not
 * run programs a repository's own `.git/config` names (a cloned repository is
 * hostile input): `core.fsmonitor`, which `git status` runs, is turned off
 * through git's `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`,
 * which outrank every config file and reach the git processes git starts
 * (submodules). Entries already in the environment are kept, ours appended.
 *
 * Only settings whose override changes nothing a user relies on are here:
 * `core.hooksPath` (the user's own hooks), `core.sshCommand`,
 * `diff.external` (no value turns it off without breaking `git diff`),
 * `filter.*`, `diff.*.textconv` and `credential.helper` stay as configured;
 * docs/security.md says so.
 */
const NEUTRAL: readonly (readonly [key: string, value: string])[] = [["core.fsmonitor", "false"]];

export function gitGuardedEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const given = Number.parseInt(env.GIT_CONFIG_COUNT ?? "", 10);
  const start = Number.isSafeInteger(given) && given > 0 ? given : 0;
  const out: Record<string, string> = { ...env };
  NEUTRAL.forEach(([key, value], i) => {
    out[`GIT_CONFIG_KEY_${start + i}`] = key;
    out[`GIT_CONFIG_VALUE_${start + i}`] = value;
  });
  out.GIT_CONFIG_COUNT = String(start + NEUTRAL.length);
  return out;
}
