/**
 * bubblewrap for containment: where `bwrap` is, what every sandboxed start
 * adds to the policy's options, and which containment is in force.
 *
 * Whatever the policy says, a sandboxed process tree gets a PID namespace of
 * its own (`--unshare-pid`), dies with the process that started it
 * (`--die-with-parent`: acai, or the plugin thread), has no controlling
 * terminal (`--new-session`) and a /proc of its namespace (`--proc /proc`,
 * after the policy's options so that no host /proc — acai's environment —
 * shows through). When the namespace's first process ends, the kernel kills
 * everything else in it, whatever it did with setsid, double forks or an
 * empty environment.
 */
import { spawnSync } from "node:child_process";
import { findOnPath } from "./find-on-path.js";

/** Added after the policy's options to every sandboxed start. */
export const CONTAINMENT_ARGS: readonly string[] = [
  "--unshare-pid",
  "--die-with-parent",
  "--new-session",
  "--proc",
  "/proc",
];

/** The policy-free options of containment alone: the host's files as they are, a PID namespace of its own. */
export const CONTAINMENT_ONLY_ARGS: readonly string[] = ["--dev-bind", "/", "/"];

/** `bwrap` on `pathVariable` (default: acai's PATH), or undefined. */
export function findBwrap(pathVariable = process.env.PATH ?? ""): string | undefined {
  return findOnPath("bwrap", pathVariable);
}

/** bwrap's arguments for `command args` under `bwrapArgs`, containment added. */
export function bwrapArgv(
  bwrapArgs: readonly string[],
  command: string,
  args: readonly string[],
  extra: readonly string[] = [],
): string[] {
  return [...bwrapArgs, ...CONTAINMENT_ARGS, ...extra, "--", command, ...args];
}

/**
 * bwrap's mounts that leave `dir` alone, read-only, in its `parent`: an empty tmpfs over the
 * parent, then `dir` bound onto it. A spawner's and a network bridge's socket folder in acai's
 * folder of them (shared/user-folder.ts), which the policy hides: no other folder there is in
 * reach.
 */
export function aloneInParent(dir: string, parent: string): string[] {
  return ["--tmpfs", parent, "--ro-bind", dir, dir];
}

/** Which containment holds acai's children: a PID namespace, or the environment marker (containment.ts). */
export type ContainmentKind =
  | { kind: "namespace"; bwrap: string }
  | { kind: "marker"; reason: string };

let probed: ContainmentKind | undefined;

/**
 * Whether PID-namespace containment works here: bwrap on PATH and able to
 * start a process in a namespace of its own (user namespaces allowed). Probed
 * once per acai process (one bwrap start, a few ms); for `acai doctor`,
 * `--verbose` and session_start.
 */
export function containmentInForce(): ContainmentKind {
  probed ??= probeContainment(findBwrap());
  return probed;
}

function probeContainment(bwrap: string | undefined): ContainmentKind {
  if (bwrap === undefined) {
    return { kind: "marker", reason: "bwrap (bubblewrap) is not on PATH" };
  }
  const probe = spawnSync(bwrap, bwrapArgv(CONTAINMENT_ONLY_ARGS, "/bin/true", []), {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 5000,
    env: {},
  });
  if (probe.status === 0) return { kind: "namespace", bwrap };
  const said = probe.stderr?.toString("utf8").trim().split("\n")[0] ?? "";
  const why = probe.error?.message ?? (said || `exit ${probe.status ?? probe.signal}`);
  return { kind: "marker", reason: `bwrap cannot start a PID namespace here (${why})` };
}
