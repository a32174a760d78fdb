/**
 * How a spawner process is launched (spawner.ts is acai's side of its
 * protocol): where it runs, its command line — the system's Python or acai's
 * Node with the script, inside bwrap for a sandbox, with its private socket
 * folder (spawner-folder.ts) bind-mounted read-only.
 */
import { aloneInParent, bwrapArgv } from "./bwrap.js";
import { PYTHON_HELPER_SCRIPT } from "./spawn-helper-python.js";
import type { SocketFolder, SocketFolderOptions } from "./spawner-folder.js";
import { SPAWNER_SCRIPT } from "./spawner-script.js";
import type { SandboxLaunch } from "./types.js";

/**
 * Where the spawner runs: inside a policy's sandbox (started by bwrap), or on
 * the host. Either place runs the Node script, or with `python` (its path)
 * the same protocol in Python (spawn-helper-python.ts; decisions 0056, 0059).
 */
export type SpawnerPlace =
  | { kind: "sandbox"; bwrap: string; launch: SandboxLaunch; python?: string }
  | { kind: "host"; python?: string };

/** Also where its private socket folder goes (spawner-folder.ts). */
export interface SpawnerOptions extends SocketFolderOptions {
  place: SpawnerPlace;
  /** acai's own Node (`process.execPath`), bind-mounted read-only into a sandbox. */
  execPath: string;
  /** The spawner's own environment (acai's containment marker: its exit sweep reaches it). */
  env: Readonly<Record<string, string>>;
  /** How long the spawner may take to say it is ready (default 10 s). */
  readyTimeoutMs?: number;
}

/**
 * The spawner's command line: the system's Python (`-I -S`: no PYTHON* variables, no site,
 * no folder of the cwd on sys.path) or acai's Node with the script, inside bwrap for a
 * sandbox. The sandbox gets the same mounts either way (acai's Node too: TypeScript hooks
 * run with it), so the kind of spawner never changes what a hook can see.
 *
 * Inside the sandbox, acai's folder of spawner folders (`folder.parent`: this user's, or this
 * acai's own — spawner-folder.ts) holds this spawner's folder alone, read-only: an empty tmpfs
 * over it (the sandbox policy hides it already, read-only — sandbox/session.ts) takes the
 * folders of every other spawner out of reach, the host helper's among them, whose socket a
 * sandboxed process could otherwise replace with its own and so take the stdio of the
 * processes acai starts outside the sandbox.
 */
export function spawnerCommand(
  options: SpawnerOptions,
  folder: Pick<SocketFolder, "dir" | "parent">,
  socketPath: string,
): [string, string[]] {
  const { place, execPath } = options;
  const inSandbox = place.kind === "sandbox";
  const [command, args] =
    place.python !== undefined
      ? [
          place.python,
          ["-I", "-S", "-c", PYTHON_HELPER_SCRIPT, socketPath, ...(inSandbox ? ["namespace"] : [])],
        ]
      : [execPath, ["-e", SPAWNER_SCRIPT, socketPath, ...(inSandbox ? [] : ["host"])]];
  if (!inSandbox) return [command, args];
  const mounts = [...aloneInParent(folder.dir, folder.parent), "--ro-bind-try", execPath, execPath];
  return [place.bwrap, bwrapArgv(place.launch.bwrapArgs, command, args, mounts)];
}
