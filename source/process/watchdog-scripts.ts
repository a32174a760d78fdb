/**
 * The watchdog's two scripts (watchdog.ts), each run with `entry procDir` as
 * its arguments: wait for EOF on stdin (acai's end of the pipe closed, which
 * the kernel does however acai died), then sweep /proc for the processes
 * whose environment holds `entry` — SIGKILL rounds until a scan finds
 * nothing, at most 5 s, as sweep.ts does, a process in the middle of an exec
 * (no environment yet) looked at again a few rounds — and exit. Terminal and hang-up
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
function inExec(dir) {
  try {
    const stat = fs.readFileSync(dir + "/stat", "latin1");
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (dir.endsWith("/2") || ppid === "2" || state === "Z" || state === "X") return false;
    return fs.readFileSync(dir + "/cmdline").length === 0;
  } catch { return false; }
}
function scan() {
  const found = { pids: [], inExec: 0 };
  let names = [];
  try { names = fs.readdirSync(procDir); } catch {}
  for (const name of names) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const env = fs.readFileSync(procDir + "/" + name + "/environ");
      if (carries(env)) found.pids.push(Number(name));
      else if (env.length === 0 && inExec(procDir + "/" + name)) found.inExec++;
    } catch {}
  }
  return found;
}
function sweep() {
  const deadline = Date.now() + 5000;
  for (let round = 0; ; round++) {
    const found = scan();
    const waiting = found.inExec > 0 && round < 5;
    if ((found.pids.length === 0 && !waiting) || Date.now() > deadline) return;
    for (const pid of found.pids) { try { process.kill(pid, "SIGKILL"); } catch {} }
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
def read(path):
    with open(path, "rb") as f:
        return f.read()
def in_exec(d):
    try:
        stat = read(d + "/stat")
        state, ppid = stat[stat.rindex(b")") + 2:].split(b" ")[:2]
        if d.endswith("/2") or ppid == b"2" or state in (b"Z", b"X"):
            return False
        return len(read(d + "/cmdline")) == 0
    except (OSError, ValueError):
        return False
def scan():
    pids, waiting = [], 0
    try:
        names = os.listdir(proc_dir)
    except OSError:
        return pids, waiting
    for name in names:
        try:
            pid = int(name) if name.isdigit() else 0
        except ValueError:
            pid = 0
        if pid <= 0 or pid == me:
            continue
        try:
            env = read(proc_dir + "/" + name + "/environ")
        except OSError:
            continue
        if carries(env):
            pids.append(pid)
        elif not env and in_exec(proc_dir + "/" + name):
            waiting += 1
    return pids, waiting
def sweep():
    deadline = time.monotonic() + 5
    rounds = 0
    while True:
        pids, waiting = scan()
        if (not pids and (not waiting or rounds >= 5)) or time.monotonic() > deadline:
            return
        rounds += 1
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
