/**
 * The spawner: a small Node process started once per sandbox policy inside
 * bubblewrap (spawner.ts starts it), which forks each sandboxed hook and tool
 * on acai's request — so bwrap starts once per policy and session, and the
 * fork leaves acai's main thread. Plain JS, Node built-ins only, inline like
 * the watchdog's, so that it runs the same from dist/ and the sources.
 *
 * argv: [socketPath], a unix socket acai serves (read-only in the sandbox).
 * Control lines on stdin (from acai), JSON:
 *   {op:"spawn", id, token, command, args, cwd, env, stdin: "socket"|"none"|"text", text?}
 *   {op:"kill", pid, signal}          (the child's process group)
 *   {op:"sweep"}                      (kill the namespace's orphans, below)
 * Lines on stdout (to acai), each carrying the run's token:
 *   {ready:true} at start; {id, token, started: pid} | {id, token, error, code}
 *   | {id, token, exit: true, code, signal}.
 * For each run the spawner opens one connection per stream to the socket,
 * writes "<token> <stream>\n" on it (stream: stdin|stdout|stderr), hands the
 * connections to the child as its fds 0–2 and closes its own copies before it
 * says `started`; acai writes stdin only after that. A one-shot run's stdin
 * comes as `text` instead: the spawner writes it to a pipe (one connection
 * and one round trip less; EPIPE ignored). When stdin closes (acai
 * ended), every child's group is killed and the spawner exits — and with it
 * bwrap's namespace and everything left in it.
 *
 * `sweep` (sent when a run was stopped, or ends with sweepOnExit): what
 * escaped a run by setsid and a double fork is reparented to the namespace's
 * init (pid 1); every such orphan whose session is not a running child's is
 * SIGKILLed, round after round (its own children become orphans in turn) —
 * also those that dropped acai's marker with their environment.
 */
export const SPAWNER_SCRIPT = `
"use strict";
const net = require("node:net");
const { spawn } = require("node:child_process");
const socketPath = process.argv[1];
for (const s of ["SIGINT", "SIGHUP", "SIGPIPE"]) process.on(s, () => {});
const runs = new Map();
function send(message) { process.stdout.write(JSON.stringify(message) + "\\n"); }
function closeAll(run) { for (const c of run.conns) c.destroy(); run.conns = []; }
function fail(run, message, code) {
  if (run.done) return;
  run.done = true;
  closeAll(run);
  send({ id: run.id, token: run.token, error: message, code: code });
}
function start(run, stdio) {
  const r = run.request;
  let child;
  try {
    child = spawn(r.command, r.args, { cwd: r.cwd, env: r.env, detached: true, stdio: stdio });
  } catch (error) {
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
  send({ id: run.id, token: run.token, started: child.pid });
  child.on("exit", (code, signal) => {
    runs.delete(child.pid);
    send({ id: run.id, token: run.token, exit: true, code: code, signal: signal });
  });
}
function connectAll(m) {
  const run = { id: m.id, token: m.token, request: m, conns: [], done: false };
  const names = m.stdin === "socket" ? ["stdin", "stdout", "stderr"] : ["stdout", "stderr"];
  let waiting = names.length;
  for (const name of names) {
    const conn = net.connect(socketPath);
    run.conns.push(conn);
    conn.on("error", (error) => fail(run, "cannot reach acai: " + error.message, "ESPAWNER"));
    conn.write(m.token + " " + name + "\\n", () => {
      if (--waiting > 0 || run.done) return;
      const first = m.stdin === "socket" ? [] : [m.stdin === "text" ? "pipe" : "ignore"];
      const stdio = first.concat(run.conns);
      start(run, stdio);
    });
  }
}
const fs = require("node:fs");
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
  if (m.op === "spawn") connectAll(m);
  else if (m.op === "kill" && Number.isInteger(m.pid) && m.pid > 1) {
    try { process.kill(-m.pid, m.signal); } catch {}
  } else if (m.op === "sweep" && !sweeping) {
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
process.stdin.on("close", () => {
  for (const pid of runs.keys()) { try { process.kill(-pid, "SIGKILL"); } catch {} }
  process.exit(0);
});
send({ ready: true });
`;
