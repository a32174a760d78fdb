/**
 * The watchdog's two scripts (watchdog.ts), each run with `entry procDir` as
 * its arguments: wait for EOF on stdin (acai's end of the pipe closed, which
 * the kernel does however acai died), then sweep /proc for the processes
 * whose environment holds `entry` — SIGKILL rounds until a scan finds
 * nothing, at most 5 s, as sweep.ts does — and exit. Terminal and hang-up
 * signals are ignored. The Python one runs where /usr/bin/python3 starts
 * (decision 0074, bench/watchdog.ts: ~30 ms of CPU to start and ~9 MB kept
 * for the session, against ~80 ms and ~43 MB for Node); the Node one
 * everywhere else. Inline, so they run the same from dist/ and from the
 * sources under test.
 */

/** argv: [entry, procDir]. Mirrors sweep.ts: repeated SIGKILL rounds until a scan finds nothing. */
export const NODE_WATCHDOG_SCRIPT = `
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

/**
 * The same in Python (`-I -S`: no PYTHON* variables, no site; `-I` needs 3.4,
 * and an older Python's refusal of it ends the process, so Node takes over).
 */
export const PYTHON_WATCHDOG_SCRIPT = `
import os, signal, sys, time
entry = os.fsencode(sys.argv[1])
proc_dir = sys.argv[2]
me = os.getpid()
for number in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(number, signal.SIG_IGN)
def carries(env):
    return env.startswith(entry) or (b"\\0" + entry) in env
def scan():
    pids = []
    try:
        names = os.listdir(proc_dir)
    except OSError:
        return pids
    for name in names:
        try:
            pid = int(name) if name.isdigit() else 0
        except ValueError:
            pid = 0
        if pid <= 0 or pid == me:
            continue
        try:
            with open(proc_dir + "/" + name + "/environ", "rb") as f:
                if carries(f.read()):
                    pids.append(pid)
        except OSError:
            pass
    return pids
def sweep():
    deadline = time.monotonic() + 5
    while True:
        pids = scan()
        if not pids or time.monotonic() > deadline:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.002)
while True:
    try:
        if not os.read(0, 65536):
            break
    except OSError:
        break
sweep()
`;
