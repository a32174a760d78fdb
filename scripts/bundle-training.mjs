// Which of the bundle's functions an `acai -p` start runs (decision 0057): the
// build runs the freshly bundled CLI once, `acai -p` in an empty temporary
// folder with a temporary ACAI_HOME and HOME, against a one-answer model
// server on 127.0.0.1, with V8's function events logged; the functions it
// compiled or ran, by chunk and position, are the ones bundle-eager.mjs makes
// eager. A run that fails stops the build: the bundle just built cannot answer
// `acai -p`.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
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

/** Runs `node --log-function-events main -p …`; resolves on exit 0, rejects with its stderr otherwise. */
function runLogged(main, logFile, dirs, url) {
  const args = ["--log-function-events", `--logfile=${logFile}`, "--no-logfile-per-isolate"];
  args.push(main, "-p", "hi", "--model", "openai:train");
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
      else reject(new Error(`the training run of ${main} ended with ${signal ?? `exit ${code}`}:\n${stderr}`));
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

/** Runs the training start of `bundleDir/main.js`; returns its used functions (see usedFunctions). */
export async function trainingRun(bundleDir) {
  const root = await mkdtemp(path.join(os.tmpdir(), "acai-bundle-training-"));
  const dirs = {
    cwd: path.join(root, "project"),
    home: path.join(root, "home"),
    acaiHome: path.join(root, "acai-home"),
  };
  await Promise.all(Object.values(dirs).map((dir) => mkdir(dir)));
  const logFile = path.join(root, "v8.log");
  const { server, url } = await oneAnswerServer();
  try {
    await runLogged(path.join(bundleDir, "main.js"), logFile, dirs, url);
    return usedFunctions(await readFile(logFile, "utf8"), bundleDir);
  } finally {
    server.close();
    await rm(root, { recursive: true, force: true });
  }
}
