/**
 * Telemetry off costs nothing at start-up (issue 24 item 1): `acai -p` from
 * spawn to its first model request at a local fake OpenAI-compatible server,
 * this build against the same build with the telemetry import stubbed out —
 * a copy of `dist/` whose `session/telemetry.js` returns "off" without
 * importing `telemetry/config.js` — so the only difference is what telemetry
 * adds when it is off. Both are the tsc build (`dist/cli/main.js`, as the
 * e2e tests run it), not the esbuild bundle `acai` runs (decision 0035),
 * where a module cannot be swapped by file. Interleaved (one of each, in turn), N pairs a run,
 * three runs; the RESULT line is the ratio of the medians (real ÷ stubbed,
 * target ≤ 1.05×) with every run's ratio and the load.
 *
 *   npm run build && node bench/telemetry-startup.ts [--pairs 15]
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { median, numberArg, printResult, threeRuns } from "./support/result.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const realCli = path.join(root, "dist", "cli", "main.js");
const pairs = numberArg("pairs", 15);

if (!existsSync(realCli)) {
  console.error("dist/cli/main.js is missing: run `npm run build` first.");
  process.exit(2);
}

const STUB = `// bench/telemetry-startup.ts: telemetry stubbed out (never on, nothing imported).
export async function startSessionTelemetry() {
  return { telemetry: undefined, warnings: [] };
}
`;

/** A copy of dist/ beside the repository's node_modules, with session/telemetry.js stubbed. */
async function stubbedBuild(): Promise<{ cli: string; dir: string }> {
  const dir = path.join(root, "bench", `.telemetry-stub-${process.pid}`);
  // The tsc build (dist/<folder>/…), which a module can be swapped in; not dist/bundle/.
  const bundle = path.join(root, "dist", "bundle");
  const filter = (from: string) => from !== bundle;
  cpSync(path.join(root, "dist"), path.join(dir, "dist"), { recursive: true, filter });
  cpSync(path.join(root, "package.json"), path.join(dir, "package.json"));
  await writeFile(path.join(dir, "dist", "session", "telemetry.js"), STUB);
  return { cli: path.join(dir, "dist", "cli", "main.js"), dir };
}

function chunk(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** Answers every chat completion with one streamed word; reports each arrival. */
async function startServer(onRequest: () => void) {
  const server = http.createServer((req, res) => {
    if (req.method === "POST") onRequest();
    req.resume();
    req.on("end", () => {
      const base = { id: "c1", object: "chat.completion.chunk", created: 0, model: "bench" };
      res.writeHead(200, { "content-type": "text/event-stream" });
      const delta = { role: "assistant", content: "ok" };
      res.write(chunk({ ...base, choices: [{ index: 0, delta, finish_reason: null }] }));
      res.write(chunk({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
      const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
      res.write(chunk({ ...base, choices: [], usage }));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

interface Setup {
  url: string;
  cwd: string;
  home: string;
  acaiHome: string;
  arrival: () => Promise<number>;
}

/** ms from spawning `acai -p` (`cli`) to its first model request; it must then exit 0. */
async function timeAcai(cli: string, s: Setup): Promise<number> {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: s.home,
    ACAI_HOME: s.acaiHome,
    OPENAI_BASE_URL: s.url,
    OPENAI_API_KEY: "bench",
  };
  const arrived = s.arrival();
  const start = nowMs();
  const child = spawn(process.execPath, [cli, "-p", "hi", "--model", "openai:bench"], {
    cwd: s.cwd,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on("close", resolve));
  const first = await Promise.race([arrived, exit.then(() => -1)]);
  const code = await exit;
  if (first < 0 || code !== 0) throw new Error(`${cli} exited ${code}:\n${stderr}`);
  return first - start;
}

async function measure(stubCli: string, s: Setup): Promise<void> {
  for (const cli of [realCli, stubCli]) await timeAcai(cli, s); // warm-up: caches, code cache
  const { values, loads } = await threeRuns(async (run) => {
    const real: number[] = [];
    const stub: number[] = [];
    for (let i = 0; i < pairs; i++) {
      // Interleaved, and which goes first alternates.
      const order = i % 2 === 0 ? [realCli, stubCli] : [stubCli, realCli];
      for (const cli of order) (cli === realCli ? real : stub).push(await timeAcai(cli, s));
    }
    const [r, b] = [median(real), median(stub)];
    console.log(
      `run ${run + 1}: telemetry off ${r.toFixed(1)} ms, stubbed ${b.toFixed(1)} ms (medians of ${pairs}), ratio ${(r / b).toFixed(3)}`,
    );
    return { real: r, stub: b };
  });
  printResult({
    name: "acai -p start-up to the first model request with telemetry off vs the same build with telemetry stubbed out",
    ratios: values.map((v) => v.real / v.stub),
    loads,
    target: { op: "≤", value: 1.05 },
    detail: `off ${values.map((v) => v.real.toFixed(0)).join(", ")} ms, stubbed ${values.map((v) => v.stub.toFixed(0)).join(", ")} ms; ${os.cpus().length} cores, node ${process.version}`,
  });
}

async function main(): Promise<void> {
  let waiter: ((t: number) => void) | undefined;
  const { server, url } = await startServer(() => {
    waiter?.(nowMs());
    waiter = undefined;
  });
  const arrival = () =>
    new Promise<number>((resolve) => {
      waiter = resolve;
    });
  const tmp = await mkdtemp(path.join(os.tmpdir(), "acai-bench-otel-"));
  const stub = await stubbedBuild();
  const setup: Setup = {
    url,
    arrival,
    cwd: path.join(tmp, "project"),
    home: path.join(tmp, "home"),
    acaiHome: path.join(tmp, "acai-home"),
  };
  await Promise.all([setup.cwd, setup.home, setup.acaiHome].map((d) => mkdir(d)));
  try {
    await measure(stub.cli, setup);
  } finally {
    server.close();
    await rm(tmp, { recursive: true, force: true });
    await rm(stub.dir, { recursive: true, force: true });
  }
}

await main();
