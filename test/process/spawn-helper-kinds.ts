/**
 * The two host spawn helpers the tests run alike (decision 0056): the Python
 * one (`posix_spawn`, the default where /usr/bin/python3 runs) and the Node
 * one (the sandbox spawner's script run on the host) — and acai's end of
 * their protocol by hand (`bareHelper`), for what acai itself would not do.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { killGroup } from "../../source/process/spawn.js";
import type { SpawnHelperOptions } from "../../source/process/spawn-helper.js";
import { PYTHON_HELPER_SCRIPT } from "../../source/process/spawn-helper-python.js";
import { SPAWNER_SCRIPT } from "../../source/process/spawner-script.js";
import { jsonLine, nulRecord, type SpawnerRequest } from "../../source/process/spawner-wire.js";

export const PYTHON = "/usr/bin/python3";

export interface HelperKind {
  name: "python" | "node";
  options: Pick<SpawnHelperOptions, "python">;
  /** Why it cannot run here (then its tests are skipped), or undefined. */
  missing: string | undefined;
}

export const KINDS: readonly HelperKind[] = [
  {
    name: "python",
    options: {},
    missing: existsSync(PYTHON) ? undefined : `${PYTHON} is not installed`,
  },
  { name: "node", options: { python: false }, missing: undefined },
];

export interface BareHelper {
  pid: number;
  spawn: (command: string, args: string[]) => void;
  /** Sends `sweep` (honoured only by a spawner in a PID namespace). */
  sweep: () => void;
  nextLine: () => Promise<string>;
  stopReading: () => void;
  close: () => void;
}

/** How a bare helper is started: its command line is given to `wrap` (default: as it is). */
export interface BareHelperOptions {
  /** Arguments after the socket's path ("namespace": the sandbox's spawner). */
  extra?: readonly string[];
  wrap?: (command: string, args: readonly string[]) => [string, string[]];
}

/**
 * A helper of `kind` started on the host with a socket served here (its spare connections are
 * accepted and held) and said hello to, its answers read line by line.
 */
export async function bareHelper(
  kind: HelperKind,
  dir: string,
  options: BareHelperOptions = {},
): Promise<BareHelper> {
  const socketPath = join(dir, "s");
  const held: Socket[] = [];
  const server = createServer((conn) => held.push(conn.on("error", () => {})));
  await new Promise<void>((done) => server.listen(socketPath, done));
  const extra = options.extra ?? (kind.name === "python" ? [] : ["host"]);
  const [plain, plainArgs] =
    kind.name === "python"
      ? [PYTHON, ["-I", "-S", "-c", PYTHON_HELPER_SCRIPT, socketPath, ...extra]]
      : [process.execPath, ["-e", SPAWNER_SCRIPT, socketPath, ...extra]];
  const [command, args] = options.wrap?.(plain, plainArgs) ?? [plain, plainArgs];
  const helper = spawn(command, args, {
    stdio: ["pipe", "pipe", "inherit"],
    detached: true,
    env: {},
  });
  helper.stdin.on("error", () => {});
  const lines = createInterface({ input: helper.stdout })[Symbol.asyncIterator]();
  const nextLine = async () => String((await lines.next()).value);
  const first = await nextLine();
  if (first !== '{"ready":true}') throw new Error(`the ${kind.name} helper said ${first}`);
  const write = (request: SpawnerRequest) =>
    helper.stdin.write((kind.name === "python" ? nulRecord(request) : jsonLine(request)) ?? "");
  write({ op: "hello", secret: randomBytes(16).toString("hex") });
  let id = 0;
  return {
    pid: helper.pid!,
    spawn: (command, args) => {
      const token = randomBytes(16).toString("hex");
      const env = { PATH: "/usr/bin:/bin" };
      write({ op: "spawn", id: ++id, token, command, args, cwd: "/", env, stdin: "none" });
    },
    sweep: () => write({ op: "sweep" }),
    nextLine,
    stopReading: () => helper.stdout.destroy(),
    close: () => {
      server.close();
      for (const conn of held) conn.destroy();
      killGroup(helper.pid, "SIGKILL");
    },
  };
}
