/**
 * The spawner: a small Node process started once per sandbox policy inside
 * bubblewrap (spawner.ts starts it), which forks each sandboxed hook and tool
 * on acai's request — so bwrap starts once per policy and session, and the
 * fork leaves acai's main thread. Plain JS, Node built-ins only, inline like
 * the watchdog's, so that it runs the same from dist/ and the sources.
 *
 * argv: [socketPath], a unix socket acai serves (read-only in the sandbox).
 * Control lines on stdin (from acai), JSON:
 *   {op:"hello", secret}              (first; 32 hex digits, never in argv)
 *   {op:"spawn", id, token, command, args, cwd, env, stdin: "socket"|"none"|"text", text?, envFile?}
 *   {op:"kill", pid, signal}          (the child's process group)
 *   {op:"sweep"}                      (kill the namespace's orphans, below)
 * Lines on stdout (to acai), each carrying the run's token:
 *   {ready:true} at start; {id, token, started: pid, conns: [ids]}
 *   | {id, token, error, code} | {id, token, exit: true, code, signal}.
 * The spawner keeps a few connections to the socket open ahead (a pool of
 * spares, decision 0041), each starting "<secret> <conn id>
"; a run takes
 * one per stream (stdin, if any, then stdout, stderr), hands them to the
 * child as its fds, closes its own copies and says `started` with their ids,
 * then opens new spares — so no connection is made while a run waits. acai
 * writes stdin only after that. A one-shot run's stdin comes as `text`
 * instead: the spawner writes it to a pipe (one connection less; EPIPE
 * ignored). When stdin closes (acai ended), every child's group is killed
 * and the spawner exits — and with it bwrap's namespace and everything left
 * in it. The same when a line to acai cannot be written (EPIPE: acai is gone;
 * a `started` or exit line written as acai died used to crash the helper
 * before it saw stdin close, leaving its children on the host) and on any
 * uncaught error.
 *
 * argv[1] "host": acai's spawn helper for unsandboxed runs (spawn-helper.ts,
 * decision 0041), started without bwrap: the same protocol, but `sweep` is
 * refused (pid 1 is the host's init there) and acai kills the child's group
 * itself. The children's stdio are unix sockets there as here — as they are
 * when Node forks them directly (libuv's "pipes" are socketpairs).
 *
 * `sweep` (sent when a run was stopped, or ends with sweepOnExit): what
 * escaped a run by setsid and a double fork is reparented to the namespace's
 * init (pid 1); every such orphan whose session is not a running child's is
 * SIGKILLed, round after round (its own children become orphans in turn) —
 * also those that dropped acai's marker with their environment.
 *
 * A spawn's `envFile` (base64; sandbox only, decision 0069): the child's
 * CLAUDE_ENV_FILE is a file of its own under the namespace's private
 * /dev/shm holding that text; its exit line carries the file back as
 * `envFile` (at most ENV_FILE_MAX_BYTES + 1 bytes) and the folder goes.
 */
import { ENV_FILE_MAX_BYTES } from "./spawner-wire.js";

export const SPAWNER_SCRIPT = `
"use strict";
const net = require("node:net");
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const socketPath = process.argv[1];
const host = process.argv[2] === "host";
for (const s of ["SIGINT", "SIGHUP", "SIGPIPE"]) process.on(s, () => {});
const runs = new Map();
const POOL_SIZE = 4;
function send(message) { process.stdout.write(JSON.stringify(message) + "\\n"); }
function closeAll(run) { for (const c of run.conns) c.destroy(); run.conns = []; }
function fail(run, message, code) {
  if (run.done) return;
  run.done = true;
  closeAll(run);
  send({ id: run.id, token: run.token, error: message, code: code });
}
const ENV_CAP = ${ENV_FILE_MAX_BYTES + 1};
function envFile(run, env) {
  if (host) throw Object.assign(new Error("kept CLAUDE_ENV_FILE outside a sandbox"), { code: "EPERM" });
  run.envDir = fs.mkdtempSync("/dev/shm/acai-env-");
  fs.chmodSync(run.envDir, 0o700);
  fs.writeFileSync(run.envDir + "/env", Buffer.from(run.request.envFile, "base64"), { mode: 0o600, flag: "wx" });
  return Object.assign({}, env, { CLAUDE_ENV_FILE: run.envDir + "/env" });
}
function envBack(run) {
  if (run.envDir === undefined) return undefined;
  let got;
  try {
    // Not a link, nor a FIFO that would block the spawner: a regular file, or nothing.
    const flags = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
    const fd = fs.openSync(run.envDir + "/env", flags);
    try {
      if (!fs.fstatSync(fd).isFile()) throw new Error("not a file");
      const buf = Buffer.alloc(ENV_CAP);
      let n = 0;
      for (let k = 1; k > 0 && n < ENV_CAP; n += k) k = fs.readSync(fd, buf, n, ENV_CAP - n, null);
      got = buf.subarray(0, n).toString("base64");
    } finally { fs.closeSync(fd); }
  } catch {}
  try { fs.rmSync(run.envDir, { recursive: true, force: true }); } catch {}
  run.envDir = undefined;
  return got;
}
function start(run, stdio) {
  const r = run.request;
  let child;
  try {
    const env = r.envFile === undefined ? r.env : envFile(run, r.env);
    child = spawn(r.command, r.args, { cwd: r.cwd, env: env, detached: true, stdio: stdio });
  } catch (error) {
    envBack(run);
    return fail(run, error.message, error.code);
  }
  closeAll(run);
  if (r.stdin === "text") {
    child.stdin.on("error", () => {});
    child.stdin.end(r.text);
  }
  child.on("error", (error) => {
    if (child.pid === undefined) fail(run, error.message, error.code);
  });
  if (child.pid === undefined) return;
  run.done = true;
  runs.set(child.pid, run);
  send({ id: run.id, token: run.token, started: child.pid, conns: run.connIds });
  child.on("exit", (code, signal) => {
    runs.delete(child.pid);
    const out = { id: run.id, token: run.token, exit: true, code: code, signal: signal };
    const kept = envBack(run);
    if (kept !== undefined) out.envFile = kept;
    send(out);
  });
}
let secret = "";
let nextConn = 0;
let opening = 0;
const pool = [];
const waiting = [];
function openSpare() {
  opening++;
  const conn = net.connect(socketPath);
  conn.spareId = ++nextConn;
  conn.state = "opening";
  conn.on("error", () => {});
  conn.on("close", () => {
    if (conn.state === "opening") opening--;
    else if (conn.state === "pooled") pool.splice(pool.indexOf(conn), 1);
    conn.state = "gone";
  });
  conn.write(secret + " " + conn.spareId + "\\n", (error) => {
    if (error || conn.state !== "opening") return;
    opening--;
    conn.state = "pooled";
    pool.push(conn);
    flush();
  });
}
function flush() {
  while (waiting.length > 0 && pool.length >= waiting[0].need) {
    const run = waiting.shift();
    run.conns = pool.splice(0, run.need);
    for (const conn of run.conns) conn.state = "taken";
    run.connIds = run.conns.map((conn) => conn.spareId);
    const m = run.request;
    const first = m.stdin === "socket" ? [] : [m.stdin === "text" ? "pipe" : "ignore"];
    start(run, first.concat(run.conns));
  }
  while (secret !== "" && pool.length + opening < POOL_SIZE + waiting.length * 3) openSpare();
}
function queue(m) {
  const need = m.stdin === "socket" ? 3 : 2;
  waiting.push({ id: m.id, token: m.token, request: m, conns: [], connIds: [], done: false, need: need });
  flush();
}
function orphans() {
  const live = new Set(runs.keys());
  const found = [];
  let names = [];
  try { names = fs.readdirSync("/proc"); } catch {}
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    let stat;
    try { stat = fs.readFileSync("/proc/" + name + "/stat", "latin1"); } catch { continue; }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z") continue;
    if (Number(fields[1]) === 1 && !live.has(Number(fields[3]))) found.push(pid);
  }
  return found;
}
let sweeping = false;
function sweep(round) {
  const found = orphans();
  for (const pid of found) { try { process.kill(pid, "SIGKILL"); } catch {} }
  if (found.length > 0 && round < 50) setTimeout(() => sweep(round + 1), 2);
  else sweeping = false;
}
function onRequest(line) {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  if (m.op === "hello" && secret === "" && /^[0-9a-f]{32}$/.test(m.secret)) {
    secret = m.secret;
    flush();
  } else if (m.op === "spawn" && secret !== "") queue(m);
  else if (m.op === "kill" && Number.isInteger(m.pid) && m.pid > 1) {
    try { process.kill(-m.pid, m.signal); } catch {}
  } else if (m.op === "sweep" && !sweeping && !host) {
    sweeping = true;
    setImmediate(() => sweep(0));
  }
}
let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  for (let nl = buffered.indexOf("\\n"); nl >= 0; nl = buffered.indexOf("\\n")) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    onRequest(line);
  }
});
function endAll(code) {
  for (const pid of runs.keys()) { try { process.kill(-pid, "SIGKILL"); } catch {} }
  process.exit(code);
}
process.stdin.on("close", () => endAll(0));
process.stdout.on("error", () => endAll(0));
process.on("uncaughtException", (error) => {
  try { process.stderr.write(String((error && error.stack) || error) + "\\n"); } catch {}
  endAll(1);
});
send({ ready: true });
`;
