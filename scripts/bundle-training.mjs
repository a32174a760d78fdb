// Which of the bundle's functions an `acai -p` start runs (decision 0057): the
// build runs the freshly bundled CLI, `acai -p` in an empty temporary folder
// with a temporary ACAI_HOME and HOME, against a one-answer model server on
// 127.0.0.1, with V8's function events logged; and, where /bin/sh runs hooks,
// `acai -p` again in a small trusted project whose hooks run before the first
// request (decision 0061: the assessment, trust, the hook registry, the
// sandbox's spawners and a hook's run are then in the cache too). The
// functions either run compiled or ran, by chunk and position, are the ones
// bundle-eager.mjs makes eager. A run that fails stops the build: the bundle
// just built cannot answer `acai -p`.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TIMEOUT_MS = 60_000;
/** V8's function events that say a function was compiled or ran. */
const USED = new Set(["parse-function", "full-parse", "interpreter", "first-execution"]);

/** A chat-completions server that streams one "ok" to every request. */
async function oneAnswerServer() {
  const base = { id: "train", object: "chat.completion.chunk", created: 0, model: "train" };
  const chunk = (choices) => `data: ${JSON.stringify({ ...base, choices })}\n\n`;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk([{ index: 0, delta: { role: "assistant", content: "ok" }, finish_reason: null }]));
      res.write(chunk([{ index: 0, delta: {}, finish_reason: "stop" }]));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/v1` };
}

/** Runs `node --log-function-events main -p …` (unlogged without `logFile`); resolves on exit 0, rejects with its stderr otherwise. */
function runLogged(main, logFile, dirs, url, cliArgs = ["-p", "hi", "--model", "openai:train"]) {
  const args =
    logFile === undefined
      ? []
      : ["--log-function-events", `--logfile=${logFile}`, "--no-logfile-per-isolate"];
  args.push(main, ...cliArgs);
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dirs.home,
    ACAI_HOME: dirs.acaiHome,
    OPENAI_BASE_URL: url,
    OPENAI_API_KEY: "train",
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: dirs.cwd, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (data) => (stderr += data));
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`the training run of ${main} ${cliArgs.join(" ")} in ${dirs.cwd} ended with ${signal ?? `exit ${code}`}:\n${stderr}`));
    });
  });
}

/** The log's used functions: bundle file name → start positions (V8's, in that file). */
export function usedFunctions(log, bundleDir) {
  const scripts = new Map();
  const used = new Map();
  for (const line of log.split("\n")) {
    const fields = line.split(",");
    if (fields[0] === "script-details" && fields[2]?.startsWith("file://")) {
      const file = fileURLToPath(fields[2]);
      if (path.dirname(file) === bundleDir) scripts.set(fields[1], path.basename(file));
    } else if (fields[0] === "function" && USED.has(fields[1])) {
      const name = scripts.get(fields[2]);
      if (name === undefined) continue;
      if (!used.has(name)) used.set(name, new Set());
      used.get(name).add(Number(fields[3]));
    }
  }
  return used;
}

/** The files outside `bundleDir` the log shows compiled (packages left to Node, among them). */
export function loadedElsewhere(log, bundleDir) {
  const files = new Set();
  for (const line of log.split("\n")) {
    const fields = line.split(",");
    if (fields[0] !== "script-details" || !fields[2]?.startsWith("file://")) continue;
    const file = fileURLToPath(fields[2]);
    if (path.dirname(file) !== bundleDir) files.add(file);
  }
  return files;
}

/** Adds `more`'s used functions to `used` (both as usedFunctions returns them). */
function addUsed(used, more) {
  for (const [name, starts] of more) {
    if (!used.has(name)) used.set(name, new Set());
    for (const start of starts) used.get(name).add(start);
  }
  return used;
}

/** An executable hook in the acai protocol: its metadata on describe, else reads stdin and says nothing. */
function executableHook(name, event) {
  const meta = JSON.stringify({ name, events: [event] });
  return `#!/bin/sh\nif [ "\${HOOK_ACTION:-}" = describe ]; then echo '${meta}'; exit 0; fi\ncat >/dev/null\n`;
}

/**
 * A project as acai meets it most days: hooks before the first request (session_start,
 * user_prompt; in the OS sandbox where it runs), one on a later event, and a settings
 * command hook; trusted with `acai hooks trust`.
 */
async function trustedProject(main, dirs, url) {
  const hooks = path.join(dirs.cwd, ".acai", "hooks");
  await mkdir(hooks, { recursive: true });
  const events = ["session_start", "user_prompt", "before_tool"];
  for (const [i, event] of events.entries()) {
    const file = path.join(hooks, `hook-${i}`);
    await writeFile(file, executableHook(`hook-${i}`, event));
    await chmod(file, 0o755);
  }
  const settings = { hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } };
  await writeFile(path.join(dirs.cwd, ".acai", "settings.json"), JSON.stringify(settings));
  await runLogged(main, undefined, dirs, url, ["hooks", "trust"]);
}

/**
 * One logged `acai -p` in `dirs` (after `warmUp` runs unlogged, if given): its used functions
 * (usedFunctions) and the files outside the bundle it loaded (loadedElsewhere).
 */
async function loggedStart(bundleDir, dirs, url, warmUp = 0) {
  const main = path.join(bundleDir, "main.js");
  for (let i = 0; i < warmUp; i++) await runLogged(main, undefined, dirs, url);
  const logFile = path.join(dirs.cwd, "..", `v8-${path.basename(dirs.cwd)}.log`);
  await runLogged(main, logFile, dirs, url);
  const log = await readFile(logFile, "utf8");
  return { used: usedFunctions(log, bundleDir), loaded: loadedElsewhere(log, bundleDir) };
}

/**
 * Runs the training starts of `bundleDir/main.js`; returns their used functions (see
 * usedFunctions) and every file outside the bundle they loaded (see loadedElsewhere).
 */
export async function trainingRun(bundleDir) {
  const root = await mkdtemp(path.join(os.tmpdir(), "acai-bundle-training-"));
  const dirs = {
    cwd: path.join(root, "project"),
    home: path.join(root, "home"),
    acaiHome: path.join(root, "acai-home"),
  };
  const project = {
    cwd: path.join(root, "trusted"),
    home: path.join(root, "trusted-home"),
    acaiHome: path.join(root, "trusted-acai-home"),
  };
  await Promise.all([...Object.values(dirs), ...Object.values(project)].map((dir) => mkdir(dir)));
  const { server, url } = await oneAnswerServer();
  try {
    const empty = await loggedStart(bundleDir, dirs, url);
    if (process.platform === "win32" || !existsSync("/bin/sh")) return empty;
    await trustedProject(path.join(bundleDir, "main.js"), project, url);
    // Once unlogged first: the hooks described and cached, the spawners foreseen next time.
    const trusted = await loggedStart(bundleDir, project, url, 1);
    return { used: addUsed(empty.used, trusted.used), loaded: new Set([...empty.loaded, ...trusted.loaded]) };
  } finally {
    server.close();
    await rm(root, { recursive: true, force: true });
  }
}
