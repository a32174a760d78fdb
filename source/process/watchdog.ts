/**
 * The watchdog: a small process that outlives acai by design, to clean up
 * after it when acai cannot (SIGKILL, a crash in native code, an unhandled
 * fatal signal). It is started once, lazily, at acai's first spawn; it does
 * NOT carry acai's marker, runs detached in its own session (no terminal
 * signal reaches it), and its stdin is a pipe from acai. When acai dies, in
 * whatever way, the kernel closes acai's end, the watchdog reads EOF, sweeps
 * /proc for the marker (as sweep.ts does) and exits. On a normal exit acai
 * has swept already and the watchdog finds nothing.
 *
 * The script is inline (plain JS, Node built-ins only) so that it runs the
 * same from dist/ and from the sources under test, with no file to find.
 */
import { type ChildProcess, spawn } from "node:child_process";

/** argv: [entry, procDir]. Mirrors sweep.ts: repeated SIGKILL rounds until a scan finds nothing. */
const WATCHDOG_SCRIPT = `
const fs = require("node:fs");
const [entry, procDir] = process.argv.slice(1);
const needle = Buffer.from(entry);
for (const s of ["SIGINT", "SIGHUP", "SIGTERM", "SIGPIPE"]) process.on(s, () => {});
function carries(env) {
  if (env.length < needle.length) return false;
  if (env.compare(needle, 0, needle.length, 0, needle.length) === 0) return true;
  for (let at = env.indexOf(needle, 1); at > 0; at = env.indexOf(needle, at + 1)) {
    if (env[at - 1] === 0) return true;
  }
  return false;
}
function scan() {
  const pids = [];
  let names = [];
  try { names = fs.readdirSync(procDir); } catch {}
  for (const name of names) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    try { if (carries(fs.readFileSync(procDir + "/" + name + "/environ"))) pids.push(Number(name)); } catch {}
  }
  return pids;
}
function sweep() {
  const deadline = Date.now() + 5000;
  for (;;) {
    const pids = scan();
    if (pids.length === 0 || Date.now() > deadline) return;
    for (const pid of pids) { try { process.kill(pid, "SIGKILL"); } catch {} }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
  }
}
process.stdin.on("data", () => {});
process.stdin.on("error", () => {});
process.stdin.on("close", () => { sweep(); process.exit(0); });
`;

export interface WatchdogOptions {
  /** The Node binary (acai's own `process.execPath`). */
  execPath: string;
  /** The environ entry to sweep (`ACAI_RUN_<id>=`). */
  entry: string;
  procDir: string;
}

/**
 * Starts the watchdog. It never keeps acai's event loop alive; its pid is
 * returned so that acai's own sweep can leave it alone.
 */
export function startWatchdog(options: WatchdogOptions): ChildProcess | undefined {
  let child: ChildProcess;
  try {
    child = spawn(options.execPath, ["-e", WATCHDOG_SCRIPT, options.entry, options.procDir], {
      // Nothing of acai's environment: above all not the marker it sweeps for.
      env: {},
      cwd: "/",
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
  } catch {
    return undefined; // containment at acai's own exits still holds
  }
  child.on("error", () => {});
  child.stdin?.on("error", () => {});
  child.unref();
  // The pipe must not keep acai alive either (a net.Socket at runtime).
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return child;
}
