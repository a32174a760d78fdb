/**
 * Which spawner a sandbox policy gets (decision 0059): the Python one
 * (spawn-helper-python.ts run with "namespace") where the system's
 * /usr/bin/python3 is usable inside the policy's sandbox, else the Node one
 * (spawner-script.ts). Python starts in ~10 ms of CPU where Node takes ~40,
 * and `posix_spawn` copies no page tables.
 *
 * "Usable" is read from the policy's bwrap arguments: the interpreter, the
 * file it links to and its standard library folder are each mounted where
 * they are on the host (a bind of the same path, or of a folder above it)
 * and nothing later hides them (a tmpfs, /dev/null or anything else put over
 * them or inside them). Anything in the arguments this module does not know
 * counts as hiding. What the arguments cannot tell (a shared library the
 * interpreter needs, /bin/true for the spawner's probe) is met at start: a
 * Python spawner that does not get ready is replaced by a Node one
 * (sandbox-launch.ts). The kind is part of the launch's key: one spawner
 * serves the launches of one kind only.
 */
import { accessSync, constants, existsSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { SpawnerKind } from "./types.js";

/** The system's Python: a fixed path, never looked up on PATH (a project's `.venv/bin` may be first). */
export const SYSTEM_PYTHON = "/usr/bin/python3";

/** bwrap options that mount something at their last argument over what was there. */
const BINDS = new Set([
  "--bind",
  "--bind-try",
  "--ro-bind",
  "--ro-bind-try",
  "--dev-bind",
  "--dev-bind-try",
]);
/** Options (and their argument count) that put something else at their last argument. */
const REPLACES = new Map([
  ["--tmpfs", 1],
  ["--dev", 1],
  ["--proc", 1],
  ["--mqueue", 1],
  ["--symlink", 2],
  ["--file", 2],
  ["--bind-data", 2],
  ["--ro-bind-data", 2],
]);
/** Options (and their argument count) that change no path's contents. */
const NEUTRAL = new Map([
  ["--remount-ro", 1],
  ["--dir", 1],
  ["--cap-drop", 1],
  ["--cap-add", 1],
  ["--chdir", 1],
  ["--setenv", 2],
  ["--unsetenv", 1],
  ["--hostname", 1],
  ["--uid", 1],
  ["--gid", 1],
  ["--perms", 1],
  ["--size", 1],
  ["--chmod", 2],
  ["--unshare-all", 0],
  ["--unshare-user", 0],
  ["--unshare-user-try", 0],
  ["--unshare-ipc", 0],
  ["--unshare-pid", 0],
  ["--unshare-net", 0],
  ["--unshare-uts", 0],
  ["--unshare-cgroup", 0],
  ["--unshare-cgroup-try", 0],
  ["--share-net", 0],
  ["--die-with-parent", 0],
  ["--new-session", 0],
  ["--as-pid-1", 0],
  ["--clearenv", 0],
]);

function within(path: string, folder: string): boolean {
  return path === folder || folder === "/" || path.startsWith(`${folder}/`);
}

/**
 * Whether every one of `paths` (absolute, links resolved) is, in the sandbox `bwrapArgs`
 * make, what it is on the host. Unknown options: not known to be, false.
 */
export function visibleInSandbox(bwrapArgs: readonly string[], paths: readonly string[]): boolean {
  const seen = new Map(paths.map((path) => [path, false]));
  for (let i = 0; i < bwrapArgs.length; ) {
    const option = bwrapArgs[i]!;
    const count = BINDS.has(option) ? 2 : (REPLACES.get(option) ?? NEUTRAL.get(option));
    if (count === undefined || i + count >= bwrapArgs.length) return false;
    if (!NEUTRAL.has(option)) {
      const dest = bwrapArgs[i + count]!;
      const same = BINDS.has(option) && bwrapArgs[i + 1] === dest;
      for (const path of paths) {
        // Over it or a folder above: it is what is mounted there now; inside it: partly hidden.
        if (within(path, dest)) seen.set(path, same);
        else if (within(dest, path) && !same) seen.set(path, false);
      }
    }
    i += count + 1;
  }
  return paths.every((path) => seen.get(path) === true);
}

/**
 * What the Python spawner needs to see of `python` on this host: the path, the file it links
 * to and that file's standard library folder (`/usr/lib/python3.11`); undefined when it is not
 * an executable file here.
 */
export function pythonPaths(python: string = SYSTEM_PYTHON): readonly string[] | undefined {
  try {
    accessSync(python, constants.X_OK);
    const real = realpathSync(python);
    const stdlib = join(dirname(dirname(real)), "lib", basename(real));
    return [...new Set([python, real, ...(existsSync(stdlib) ? [stdlib] : [])])];
  } catch {
    return undefined;
  }
}

/** The spawner kind for `bwrapArgs`, given what the host's Python needs (undefined: no Python). */
export function spawnerKindFor(
  bwrapArgs: readonly string[],
  python: readonly string[] | undefined,
): SpawnerKind {
  return python !== undefined && visibleInSandbox(bwrapArgs, python) ? "python" : "node";
}

/**
 * A session's choice of spawner per launch: `ACAI_SPAWN_HELPER=node` in acai's environment
 * `env` keeps every spawner Node (as it does the host's spawn helper); the host's Python is
 * looked at once, at the first launch.
 */
export function spawnerKindChooser(
  env: Readonly<Record<string, string | undefined>>,
): (bwrapArgs: readonly string[]) => SpawnerKind {
  if (env.ACAI_SPAWN_HELPER === "node") return () => "node";
  let python: readonly string[] | undefined | null = null;
  return (bwrapArgs) => {
    if (python === null) python = pythonPaths();
    return spawnerKindFor(bwrapArgs, python);
  };
}
