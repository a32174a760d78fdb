/**
 * The containment of a plugin's children, installed by worker.ts before the
 * plugin is imported: every child a plugin starts — spawn, exec, execFile,
 * fork and their sync forms — keeps acai's containment markers even in an
 * empty environment, and, where bwrap can make one (`workerData.children`,
 * from host.ts), starts in a PID namespace of its own that dies with the
 * worker's thread. Self-contained like worker.ts (only `node:` imports and
 * erasable types): it runs as TypeScript source too.
 */
import childProcess, { ChildProcess } from "node:child_process";
import { syncBuiltinESMExports } from "node:module";

/** bwrap and the options before the command (policy + containment), or nothing (markers only). */
export interface Children {
  bwrap: string;
  prefix: string[];
}

interface SpawnInternals {
  file: string;
  args: string[];
  envPairs?: string[];
}

type Env = Record<string, string | undefined>;
type Fn = (...args: unknown[]) => unknown;

export function containChildren(children: Children | undefined): void {
  const marks = Object.entries(process.env).filter(([k]) => k.startsWith("ACAI_RUN_"));
  const wrap = (file: string, args: readonly unknown[]): [string, unknown[]] =>
    children ? [children.bwrap, [...children.prefix, "--", file, ...args]] : [file, [...args]];
  const marked = (env: Env | undefined): Env => {
    const out: Env = { ...(env ?? process.env) };
    for (const [k, v] of marks) out[k] = v;
    return out;
  };
  // spawn, exec, execFile and fork all start through ChildProcess.prototype.spawn.
  const proto = ChildProcess.prototype as unknown as { spawn: (o: SpawnInternals) => unknown };
  const spawnOne = proto.spawn;
  proto.spawn = function (this: unknown, options: SpawnInternals) {
    const pairs = (options.envPairs ?? []).filter((p) => !p.startsWith("ACAI_RUN_"));
    options.envPairs = [...pairs, ...marks.map(([k, v]) => `${k}=${v}`)];
    if (children) {
      options.args = [
        children.bwrap,
        ...children.prefix,
        "--",
        options.file,
        ...options.args.slice(1),
      ];
      options.file = children.bwrap;
    }
    return spawnOne.call(this, options);
  };
  // The sync forms do not go through it: each is wrapped where it is exported.
  const cp = childProcess as unknown as Record<string, Fn>;
  const split = (rest: unknown[]): [unknown[], { env?: Env; shell?: unknown }] =>
    Array.isArray(rest[0])
      ? [rest[0] as unknown[], (rest[1] ?? {}) as { env?: Env }]
      : [[], (rest[0] ?? {}) as { env?: Env }];
  for (const name of ["spawnSync", "execFileSync"]) {
    const original = cp[name]!;
    cp[name] = (file: unknown, ...rest: unknown[]) => {
      const [args, options] = split(rest);
      const [f, a] = wrap(String(file), args);
      return original(f, a, { ...options, env: marked(options.env) });
    };
  }
  const execFileSync = cp.execFileSync!;
  cp.execSync = (command: unknown, given?: unknown) => {
    const options = (given ?? {}) as { shell?: unknown };
    const shell = typeof options.shell === "string" ? options.shell : "/bin/sh";
    return execFileSync(shell, ["-c", String(command)], { ...options, shell: false });
  };
  syncBuiltinESMExports();
}
