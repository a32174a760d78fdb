/**
 * Cost of one `http` hook per event vs one spawned command hook per event,
 * each in its own running session (an interceptor over a stream of Bash
 * tool_call_start events), timed from the agent's yield of the event to the
 * verdict coming back. The http hook POSTs to a server on 127.0.0.1 through
 * the session's keep-alive client (hooks/run/handlers/http-client.ts), so
 * after the first call no connection is opened; the command hook is a bash
 * script giving the same answer. The two sessions' events alternate, N=100
 * each after a warm-up; three runs; the RESULT line is the ratio of medians
 * (target ≤ 0.3) with the spread and the load. Also printed: the hundredth
 * call's time and how many connections the server saw (1 with keep-alive).
 *
 * Run (the bench uses the built code):
 *   npm run build && node bench/hooks-http.ts
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { AgentEvent } from "../dist/agent/events.js";
import type { Verdict } from "../dist/agent/verdicts.js";
import type { HookDefinition } from "../dist/hooks/contract/definition.js";
import { createHttpHookClient } from "../dist/hooks/run/handlers/http-client.js";
import { createHookInterceptor } from "../dist/hooks/run/interceptor.js";
import { runProcess } from "../dist/process/runner.js";
import { bashToolCall, parentEnvironment } from "./support/bash-call.ts";
import { median, printResult, threeRuns } from "./support/result.ts";

const N = 100;
const WARM_UP = 5;
const ANSWER = '{"action":"continue","context":"seen"}';
const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-http-"));
const script = path.join(root, "answer.sh");
await writeFile(script, `#!/bin/bash\ncat > /dev/null\necho '${ANSWER}'\n`);
await chmod(script, 0o755);

let connections = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(ANSWER);
  });
});
server.on("connection", () => {
  connections++;
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

const base = {
  events: ["before_tool" as const],
  matcher: { tool: "Bash" },
  priority: 100,
  timeoutMs: 30_000,
  async: false,
  failure: "open" as const,
  env: [],
  scope: "user" as const,
  sourceKind: "settings" as const,
  file: path.join(root, "settings.json"),
  dialect: "acai" as const,
};
const commandHook: HookDefinition = {
  ...base,
  id: "user:settings:command",
  name: "command",
  launch: { command: script, args: [], viaShell: false },
};
const httpHook: HookDefinition = {
  ...base,
  id: "user:settings:http",
  name: "http",
  launch: {
    mode: "http",
    command: url,
    args: [],
    viaShell: false,
    url,
    headers: {},
    allowedEnvVars: [],
  },
};
const { toolStart } = bashToolCall(root);
const client = createHttpHookClient();

/** A running session of one hook: `one()` lets the agent raise the next event and resolves with its time. */
function session(hook: HookDefinition) {
  let release: (() => void) | undefined;
  let record: ((ms: number) => void) | undefined;
  let stopped = false;
  async function* agent(): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
    for (;;) {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      if (stopped) return;
      const started = performance.now();
      const verdict = yield toolStart;
      const ms = performance.now() - started;
      if (verdict?.action !== "continue" || verdict.context?.[0] !== "seen") {
        throw new Error(`${hook.name}: verdict ${JSON.stringify(verdict)}`);
      }
      record?.(ms);
    }
  }
  const intercept = createHookInterceptor({
    hooks: [hook],
    runner: runProcess,
    env: parentEnvironment(),
    projectDir: root,
    acaiHome: path.join(root, `acai-home-${hook.name}`),
    handlers: { http: client },
  });
  const drained = (async () => {
    for await (const _ of intercept(agent())) {
      // drain
    }
  })();
  return {
    one(): Promise<number> {
      return new Promise((resolve) => {
        record = resolve;
        release?.();
      });
    },
    async stop(): Promise<void> {
      stopped = true;
      release?.();
      await drained;
    },
  };
}

try {
  const { values: runs, loads } = await threeRuns(async () => {
    const viaHttp = session(httpHook);
    const viaCommand = session(commandHook);
    const times = { http: [] as number[], command: [] as number[] };
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < N + WARM_UP; i++) {
      // Alternate which goes first, so drift spreads evenly.
      const pair = i % 2 === 0 ? [viaHttp, viaCommand] : [viaCommand, viaHttp];
      const first = await pair[0]!.one();
      const second = await pair[1]!.one();
      if (i < WARM_UP) continue;
      times.http.push(pair[0] === viaHttp ? first : second);
      times.command.push(pair[0] === viaHttp ? second : first);
    }
    await viaHttp.stop();
    await viaCommand.stop();
    return times;
  });
  const last = runs[runs.length - 1]!;
  console.log(
    `hooks-http: N=${N} each, interleaved, node ${process.version}, load ${os.loadavg()[0]?.toFixed(2)}`,
  );
  console.log(
    `http hook:    median ${median(last.http).toFixed(3)} ms; the 100th call ${last.http[N - 1]?.toFixed(3)} ms`,
  );
  console.log(`command hook: median ${median(last.command).toFixed(3)} ms`);
  console.log(`connections the server saw over ${runs.length} runs: ${connections}`);
  printResult({
    name: "one http hook (keep-alive, 127.0.0.1) per event vs one spawned command hook",
    ratios: runs.map((run) => median(run.http) / median(run.command)),
    loads,
    target: { op: "≤", value: 0.3 },
    detail: `http ${runs.map((run) => median(run.http).toFixed(2)).join(", ")} ms, command ${runs.map((run) => median(run.command).toFixed(2)).join(", ")} ms`,
  });
} finally {
  client.close();
  server.closeAllConnections();
  server.close();
  await rm(root, { recursive: true, force: true });
}
