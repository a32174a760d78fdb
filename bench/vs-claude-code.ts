/**
 * acai against Claude Code on the same command hooks (issue 25, item 6).
 *
 * Installs `@anthropic-ai/claude-code` into a temp folder with npm (its install
 * script is not run: the bench starts the platform's binary, or the package's
 * `cli.js` in older versions, itself) — or uses `--claude-code DIR`, a folder
 * where it is installed — and skips with a message when it cannot. Both agents
 * then run the same headless session against one local fake Anthropic server
 * (bench/support/fake-anthropic.ts): the model asks for CALLS Bash calls
 * (`true`), one per response, then answers. The same PreToolUse hook (read the
 * JSON, block `rm -rf /`, else say nothing) in bash, Python and Node is
 * configured as a command hook in each agent's user settings (Claude Code:
 * `$HOME/.claude/settings.json`; acai: `$ACAI_HOME/settings.json`, the same
 * `hooks` section), and for acai also as a persistent Node hook (one process
 * per session, the same logic).
 *
 * What is timed is a tool-call turn as the model server sees it: from one
 * model request to the next (the response, the hook, the Bash call, the next
 * request), over the turns of a session after the first (which also starts a
 * persistent hook's process) — start-up and exit are not in it. Time added
 * per hook = turn time with the hook − without, two ways: the mean turn (a
 * session's mean, the median over a run's sessions: every pause counts) and
 * the median turn (all the run's turns of that agent and kind: one turn
 * stretched by a garbage collection of 5–65 ms or the scheduler moves it
 * less). Sessions alternate between the agents and hook kinds; three runs of
 * REPS sessions each; ratios are acai's added time / Claude Code's (targets:
 * ≤ 0.8 for command hooks, ≤ 0.05 for the persistent hook against Claude
 * Code's Node command hook). acai without hooks also runs twice per
 * repetition ("control"): what the second adds over the first is the bench's
 * own noise, printed as NOISE beside the RESULT lines.
 *
 * Each command hook's own process is timed alone too ("floor"): its command
 * started directly by the bench (no shell, no agent), the PreToolUse payload
 * on its stdin, waited for — CALLS times per repetition, between the
 * sessions. No agent can add less than that per call, so floor / Claude
 * Code's added time is the best ratio any change to acai could reach: the
 * FLOOR lines print it beside each agent's share above the floor.
 *
 * The persistent hook is also measured paired ("paired"): one session asks
 * for `true` and `:` in turn, and the same persistent hook matches only
 * `true` (its matcher's `pattern`), so its added time is the matched turns'
 * mean minus the unmatched turns' in the same session — a garbage collection
 * or a slow sandboxed call lands in either kind of turn alike, instead of in
 * one of two sessions. The control sessions alternate the same way: their
 * `true` turns over their `:` turns is printed as NOISE paired (it showed no
 * lasting sign over six runs, so it is not taken out of the figure).
 *
 *   npm run build && node bench/vs-claude-code.ts [--calls 20] [--reps 3] [--claude-code DIR]
 *     [--acai-sandbox off]   (acai's tools and hooks outside its OS sandbox, as Claude Code's run)
 *     [--acai-only]          (no Claude Code: acai's added times and the noise only)
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeAnthropic } from "./support/fake-anthropic.ts";
import { realInterpreter } from "./support/python.ts";
import { median, numberArg, printResult, threeRuns } from "./support/result.ts";

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const CALLS = Math.max(2, numberArg("calls", 20));
const REPS = numberArg("reps", 3);
const SESSION_TIMEOUT_MS = 180_000;
const MODEL = "claude-sonnet-4-5";
const ccAt = process.argv.indexOf("--claude-code");
/** `--acai-sandbox off`: acai's hooks run outside its OS sandbox, as Claude Code's do (what the sandbox costs). */
const ACAI_SANDBOX_OFF = process.argv[process.argv.indexOf("--acai-sandbox") + 1] === "off";
/** `--acai-only`: Claude Code is neither installed nor run (acai's own A/B). */
const ACAI_ONLY = process.argv.includes("--acai-only");

type Agent = "claude" | "acai";
/** "control": acai without hooks again, the bench's own noise; "paired": the persistent hook matching every other call. */
type Kind = "none" | "control" | "bash" | "python" | "node" | "persistent" | "paired";

/** How to start Claude Code from an install folder, or why not. */
function claudeCommand(dir: string): { command: string; args: string[]; version: string } | string {
  const pkg = path.join(dir, "node_modules", "@anthropic-ai", "claude-code");
  if (!existsSync(path.join(pkg, "package.json"))) return `no @anthropic-ai/claude-code in ${dir}`;
  const version = (
    JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8")) as { version: string }
  ).version;
  const native = path.join(
    dir,
    "node_modules",
    "@anthropic-ai",
    `claude-code-${process.platform}-${process.arch}`,
    "claude",
  );
  if (existsSync(native)) return { command: native, args: [], version };
  const cli = path.join(pkg, "cli.js");
  if (existsSync(cli)) return { command: process.execPath, args: [cli], version };
  return `neither the ${process.platform}-${process.arch} binary nor cli.js in ${pkg}`;
}

function install(dir: string): string | undefined {
  const npm = spawnSync(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--prefix",
      dir,
      "@anthropic-ai/claude-code",
    ],
    { encoding: "utf8", timeout: 600_000 },
  );
  if (npm.status === 0) return undefined;
  return (npm.stderr || npm.error?.message || `npm exited ${npm.status}`)
    .trim()
    .split("\n")
    .slice(-3)
    .join(" ");
}

const GUARD_BASH = `payload="$(cat)"\ncase "$payload" in *'rm -rf /'*) echo "blocked: rm -rf /" >&2; exit 2;; esac\nexit 0\n`;
const GUARD_PY = `import json, sys\nevent = json.load(sys.stdin)\nif "rm -rf /" in str(event.get("tool_input", {}).get("command", "")):\n    print("blocked: rm -rf /", file=sys.stderr)\n    sys.exit(2)\n`;
const GUARD_NODE = `let text = "";\nprocess.stdin.on("data", (c) => (text += c));\nprocess.stdin.on("end", () => {\n  const event = JSON.parse(text);\n  if (String(event.tool_input?.command ?? "").includes("rm -rf /")) {\n    console.error("blocked: rm -rf /");\n    process.exit(2);\n  }\n});\n`;
/** The same logic as an acai persistent hook: one process, one JSON line per request (`paired`: matching only `true`). */
const GUARD_PERSISTENT = (node: string, paired: boolean) => `#!${node}
import { createInterface } from "node:readline";
if (process.env.HOOK_ACTION === "describe") {
  const matcher = ${paired ? `{ tool: "Bash", pattern: "^true$" }` : `{ tool: "Bash" }`};
  console.log(JSON.stringify({ name: "guard", events: ["before_tool"], matcher, mode: "persistent" }));
  process.exit(0);
}
createInterface({ input: process.stdin }).on("line", (line) => {
  const request = JSON.parse(line);
  const blocked = String(request.tool_input?.command ?? "").includes("rm -rf /");
  process.stdout.write(JSON.stringify(blocked ? { id: request.id, action: "block", reason: "rm -rf /" } : { id: request.id }) + "\\n");
});
`;

/** Writes the hooks and one HOME (and ACAI_HOME) per agent and kind; returns where each lives. */
async function setUp(root: string, kinds: Kind[]) {
  const scripts = path.join(root, "hooks");
  await mkdir(scripts);
  await writeFile(path.join(scripts, "guard.sh"), GUARD_BASH);
  await writeFile(path.join(scripts, "guard.py"), GUARD_PY);
  await writeFile(path.join(scripts, "guard.mjs"), GUARD_NODE);
  const commandOf: Record<Exclude<Kind, "none" | "control" | "persistent" | "paired">, string> = {
    bash: `bash ${path.join(scripts, "guard.sh")}`,
    // The interpreter python3 ends in, for both agents (support/python.ts: not pyenv's shim).
    python: `${realInterpreter("python3")} ${path.join(scripts, "guard.py")}`,
    node: `${process.execPath} ${path.join(scripts, "guard.mjs")}`,
  };
  const homes = new Map<string, { home: string; acaiHome: string }>();
  for (const agent of ["claude", "acai"] as Agent[]) {
    for (const kind of kinds) {
      if (!runs(agent, kind)) continue;
      const home = path.join(root, `home-${agent}-${kind}`);
      const acaiHome = path.join(home, ".acai");
      await mkdir(path.join(home, ".claude"), { recursive: true });
      await mkdir(path.join(acaiHome, "hooks"), { recursive: true });
      const settings = {
        ...(agent === "acai" && ACAI_SANDBOX_OFF ? { sandbox: { enabled: false } } : {}),
        ...(kind === "none" || kind === "control" || kind === "persistent" || kind === "paired"
          ? {}
          : {
              hooks: {
                PreToolUse: [
                  { matcher: "Bash", hooks: [{ type: "command", command: commandOf[kind] }] },
                ],
              },
            }),
      };
      const file =
        agent === "claude"
          ? path.join(home, ".claude", "settings.json")
          : path.join(acaiHome, "settings.json");
      await writeFile(file, JSON.stringify(settings, null, 2));
      if (kind === "persistent" || kind === "paired") {
        const hook = path.join(acaiHome, "hooks", "guard");
        await writeFile(hook, GUARD_PERSISTENT(process.execPath, kind === "paired"));
        await chmod(hook, 0o755);
      }
      homes.set(`${agent}/${kind}`, { home, acaiHome });
    }
  }
  return { homes, commands: commandOf };
}

type CommandKind = keyof Awaited<ReturnType<typeof setUp>>["commands"];

/** The payload Claude Code sends a PreToolUse hook for `true` (the floor's stdin). */
const FLOOR_PAYLOAD = JSON.stringify({
  session_id: "00000000-0000-4000-8000-000000000000",
  transcript_path: "/tmp/transcript.jsonl",
  cwd: "/tmp",
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "true", description: "Run true" },
});

/** One hook command alone (ms): started directly, the payload written to its stdin, waited for. */
async function timeHookAlone(command: string): Promise<number> {
  const [file, ...args] = command.split(" ");
  const start = performance.now();
  const child = spawn(file ?? "", args, { stdio: ["pipe", "ignore", "ignore"] });
  child.stdin.end(FLOOR_PAYLOAD);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  if (code !== 0) throw new Error(`the hook alone (${command}) exited ${code}`);
  return performance.now() - start;
}

/** Which agent runs which kind: Claude Code has no persistent hooks, and acai alone is the control. */
function runs(agent: Agent, kind: Kind): boolean {
  if (agent === "acai") return true;
  return !ACAI_ONLY && kind !== "persistent" && kind !== "paired" && kind !== "control";
}

interface Runner {
  claude: { command: string; args: string[] } | undefined;
  url: string;
  /** The fake server asking for `true` and `:` in turn (the paired sessions). */
  alternateUrl: string;
  cwd: string;
  homes: Awaited<ReturnType<typeof setUp>>["homes"];
  commands: Awaited<ReturnType<typeof setUp>>["commands"];
  takeTurnTimes: () => number[];
}

/** One session; each tool-call turn's time (ms) as the model server saw it, the first left out. */
async function session(r: Runner, agent: Agent, kind: Kind): Promise<number[]> {
  const where = r.homes.get(`${agent}/${kind}`);
  if (!where) throw new Error(`no set-up for ${agent}/${kind}`);
  const env: Record<string, string> = {
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: where.home,
    ANTHROPIC_BASE_URL: kind === "paired" || kind === "control" ? r.alternateUrl : r.url,
    ANTHROPIC_API_KEY: "sk-ant-bench-not-a-key",
  };
  const [command, args] =
    agent === "claude" && r.claude
      ? [
          r.claude.command,
          [
            ...r.claude.args,
            "-p",
            "go",
            "--allowedTools",
            "Bash",
            "--model",
            MODEL,
            "--output-format",
            "json",
          ],
        ]
      : [
          process.execPath,
          [
            CLI,
            "-p",
            "go",
            "--allowedTools",
            "Bash",
            "--model",
            `anthropic:${MODEL}`,
            "--max-steps",
            String(CALLS + 5),
          ],
        ];
  if (agent === "claude") {
    Object.assign(env, {
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
    });
  } else env.ACAI_HOME = where.acaiHome;
  r.takeTurnTimes();
  const child = spawn(command, args, { cwd: r.cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), SESSION_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  clearTimeout(timer);
  const times = r.takeTurnTimes();
  if (code !== 0 || times.length !== CALLS + 1) {
    throw new Error(
      `${agent} (${kind} hook) exited ${code} after ${times.length} of ${CALLS + 1} model requests: ${stderr.trim().slice(-500)}`,
    );
  }
  // From the second request on: the first tool turn also starts a persistent hook's process.
  return times.slice(2).map((at, i) => at - (times[i + 1] ?? at));
}

const mean = (values: readonly number[]): number =>
  values.reduce((sum, v) => sum + v, 0) / values.length;

/** A run's turn time per agent and kind, both ways: the median session's mean turn, and the median turn. */
interface TurnTimes {
  mean: number;
  median: number;
}

function turnTimes(sessions: readonly number[][]): TurnTimes {
  return { mean: median(sessions.map(mean)), median: median(sessions.flat()) };
}

/** Claude Code to run (installed by npm unless `--claude-code DIR`), none with --acai-only; SKIP and exit when it cannot be had. */
function findClaude(root: string): Exclude<ReturnType<typeof claudeCommand>, string> | undefined {
  if (ACAI_ONLY) return undefined;
  const ccDir =
    ccAt > 0 ? path.resolve(process.argv[ccAt + 1] ?? ".") : path.join(root, "claude-code");
  if (ccAt < 0) {
    console.log(
      `installing @anthropic-ai/claude-code into ${ccDir} (npm, install scripts not run)…`,
    );
    const failed = install(ccDir);
    if (failed) {
      console.log(`SKIP vs-claude-code: could not install @anthropic-ai/claude-code (${failed})`);
      process.exit(0);
    }
  }
  const claude = claudeCommand(ccDir);
  if (typeof claude === "string") {
    console.log(`SKIP vs-claude-code: ${claude}`);
    process.exit(0);
  }
  return claude;
}

type Added = Map<string, TurnTimes>;

/** One run: REPS sessions of every pair, the order reversed every other repetition; the time each hook adds. */
async function oneRun(runner: Runner, pairs: [Agent, Kind][], run: number): Promise<Added> {
  const floorKinds = commandKinds(pairs.map(([, kind]) => kind));
  const turns = new Map<string, number[][]>([
    ...pairs.map(([a, k]) => [`${a}/${k}`, []] as [string, number[][]]),
    ...floorKinds.map((k) => [`floor/${k}`, []] as [string, number[][]]),
  ]);
  for (let rep = 0; rep < REPS; rep++) {
    const order = rep % 2 ? [...pairs].reverse() : pairs;
    for (const [agent, kind] of order)
      turns.get(`${agent}/${kind}`)?.push(await session(runner, agent, kind));
    for (const kind of floorKinds) {
      const alone: number[] = [];
      for (let i = 0; i < CALLS; i++) alone.push(await timeHookAlone(runner.commands[kind]));
      turns.get(`floor/${kind}`)?.push(alone);
    }
  }
  const turn = (key: string) => turnTimes(turns.get(key) ?? []);
  const added: Added = new Map();
  for (const [agent, kind] of pairs) {
    if (kind === "control" || kind === "paired")
      added.set(`${agent}/${kind}-paired`, pairedAdded(turns.get(`${agent}/${kind}`) ?? []));
    if (kind === "none" || kind === "paired") continue;
    const [withHook, without] = [turn(`${agent}/${kind}`), turn(`${agent}/none`)];
    added.set(`${agent}/${kind}`, {
      mean: withHook.mean - without.mean,
      median: withHook.median - without.median,
    });
  }
  for (const kind of floorKinds) added.set(`floor/${kind}`, turn(`floor/${kind}`));
  const none = (agent: Agent) =>
    `${turn(`${agent}/none`).mean.toFixed(1)} ms (median turn ${turn(`${agent}/none`).median.toFixed(1)})`;
  console.log(
    `run ${run + 1}: turn without hooks: ${runner.claude ? `Claude Code ${none("claude")}, ` : ""}acai ${none("acai")}; added per hook (mean turn / median turn): ${[
      ...added,
    ]
      .map(([k, v]) => `${k} ${v.mean.toFixed(2)} / ${v.median.toFixed(2)} ms`)
      .join(", ")}`,
  );
  return added;
}

/**
 * A paired session's added time: its matched (`true`, odd-indexed) turns over its unmatched (`:`)
 * ones — the median session's difference of means, and the difference of the run's median turns.
 */
function pairedAdded(sessions: readonly number[][]): TurnTimes {
  const split = (turns: readonly number[], matched: boolean) =>
    turns.filter((_, i) => i % 2 === (matched ? 1 : 0));
  return {
    mean: median(sessions.map((s) => mean(split(s, true)) - mean(split(s, false)))),
    median:
      median(sessions.flatMap((s) => split(s, true))) -
      median(sessions.flatMap((s) => split(s, false))),
  };
}

const fixed = (values: readonly number[]) => values.map((v) => v.toFixed(2)).join(", ");

/** The kinds that are a command hook (bash, python, node), each once. */
function commandKinds(kinds: readonly Kind[]): CommandKind[] {
  const commands = kinds.filter(
    (k): k is CommandKind =>
      k !== "none" && k !== "control" && k !== "persistent" && k !== "paired",
  );
  return [...new Set(commands)];
}

/**
 * The FLOOR lines: each command hook's own process alone, each agent's added time above it,
 * and floor / Claude Code's added time — the ratio acai would reach if it added nothing.
 */
function printFloors(values: readonly Added[], loads: readonly number[], kinds: readonly Kind[]) {
  const at = (key: string) => values.map((v) => v.get(key)?.mean ?? Number.NaN);
  const load = `load ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`;
  for (const kind of commandKinds(kinds)) {
    const floor = at(`floor/${kind}`);
    const above = (agent: Agent) => at(`${agent}/${kind}`).map((a, i) => a - (floor[i] ?? 0));
    const claude = at(`claude/${kind}`);
    const best = floor.map((f, i) => f / (claude[i] ?? Number.NaN));
    const vsClaude = ACAI_ONLY
      ? ""
      : `; Claude Code's above it ${fixed(above("claude"))} ms; the best ratio acai could reach (floor / Claude Code's added time, acai adding nothing of its own): ${median(best).toFixed(3)}× (runs ${fixed(best)})`;
    console.log(
      `FLOOR one ${kind} hook's own process alone (started directly, the payload on stdin, waited for): mean ${median(floor).toFixed(2)} ms (runs ${fixed(floor)}); acai's added time above it ${fixed(above("acai"))} ms${vsClaude}; ${load}`,
    );
  }
}

/** The RESULT lines: acai's added time over Claude Code's, by the mean turn (the figure) and the median turn. */
function printRatios(
  values: readonly Added[],
  loads: readonly number[],
  kinds: readonly Kind[],
  version: string,
): void {
  const at = (key: string, way: keyof TurnTimes) =>
    values.map((v) => v.get(key)?.[way] ?? Number.NaN);
  const line = (name: string, acai: string, claude: string, target: number) => {
    const ratios = (way: keyof TurnTimes) =>
      at(acai, way).map((a, i) => a / (at(claude, way)[i] ?? Number.NaN));
    const byMedian = ratios("median");
    printResult({
      name,
      ratios: ratios("mean"),
      loads,
      target: { op: "≤", value: target },
      detail: `acai ${fixed(at(acai, "mean"))} ms; Claude Code ${fixed(at(claude, "mean"))} ms; by the median turn: ratio ${median(byMedian).toFixed(3)}× (runs ${fixed(byMedian)}), acai ${fixed(at(acai, "median"))} ms, Claude Code ${fixed(at(claude, "median"))} ms`,
    });
  };
  for (const kind of commandKinds(kinds))
    line(
      `time added per tool call by one ${kind} command hook, acai / Claude Code ${version}`,
      `acai/${kind}`,
      `claude/${kind}`,
      0.8,
    );
  line(
    "time added per tool call by the same logic as an acai persistent Node hook / Claude Code's Node command hook",
    "acai/persistent",
    "claude/node",
    0.05,
  );
  line(
    "time added per tool call by the same persistent Node hook, paired (matched − unmatched turns of one session), / Claude Code's Node command hook",
    "acai/paired-paired",
    "claude/node",
    0.05,
  );
}

/** acai's added times alone (and the noise line): what --acai-only prints, and the NOISE line always. */
function printAcai(values: readonly Added[], loads: readonly number[], kinds: readonly Kind[]) {
  const at = (key: string, way: keyof TurnTimes) =>
    values.map((v) => v.get(key)?.[way] ?? Number.NaN);
  const load = `load ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`;
  const say = (label: string, key: string) =>
    `${label}: mean turn ${median(at(key, "mean")).toFixed(2)} ms (runs ${fixed(at(key, "mean"))}), median turn ${median(at(key, "median")).toFixed(2)} ms (runs ${fixed(at(key, "median"))}); ${load}`;
  if (ACAI_ONLY)
    for (const kind of kinds.filter((k) => k !== "none" && k !== "control" && k !== "paired"))
      console.log(say(`ACAI time added per tool call by one ${kind} hook`, `acai/${kind}`));
  if (ACAI_ONLY)
    console.log(
      say(
        "ACAI time added per tool call by the persistent hook, paired (matched − unmatched turns)",
        "acai/paired-paired",
      ),
    );
  console.log(
    say(
      "NOISE acai without hooks, run again, over acai without hooks (no hook in either: the bench's own noise)",
      "acai/control",
    ),
  );
  console.log(
    say(
      "NOISE paired: acai without hooks, its `true` turns over its `:` turns (the paired figure's own noise)",
      "acai/control-paired",
    ),
  );
}

const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-vs-claude-code-"));
const server = await startFakeAnthropic(CALLS, "true");
try {
  const claude = findClaude(root);
  const python = spawnSync("python3", ["-c", "import json"]).status === 0;
  const kinds: Kind[] = [
    "none",
    "control",
    "bash",
    ...(python ? (["python"] as const) : []),
    "node",
    "persistent",
    "paired",
  ];
  const cwd = path.join(root, "project");
  await mkdir(cwd);
  execFileSync("git", ["init", "-q"], { cwd });
  const runner: Runner = {
    claude,
    url: server.url,
    alternateUrl: server.alternateUrl,
    cwd,
    ...(await setUp(root, kinds)),
    takeTurnTimes: server.takeTurnTimes,
  };
  console.log(
    `${claude ? `Claude Code ${claude.version} vs ` : ""}acai${ACAI_SANDBOX_OFF ? " (sandbox off)" : ""}: ${CALLS} Bash calls a session, ${REPS} sessions per agent and hook a run, three runs; node ${process.version}${python ? "" : " (no python3: Python skipped)"}`,
  );
  const pairs: [Agent, Kind][] = [];
  for (const kind of kinds)
    for (const agent of ["claude", "acai"] as Agent[])
      if (runs(agent, kind)) pairs.push([agent, kind]);
  for (const [agent, kind] of pairs) await session(runner, agent, kind); // warm-up: caches, code caches
  const { values, loads } = await threeRuns((run) => oneRun(runner, pairs, run));
  if (claude) printRatios(values, loads, kinds, claude.version);
  printFloors(values, loads, kinds);
  printAcai(values, loads, kinds);
} finally {
  server.close();
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
}
