/**
 * acai's own CPU time per command-hook step (issue 25, item 6).
 *
 * `acai -p` sessions against the fake Anthropic server (CALLS Bash calls of
 * `true`, one per response), with no hook and with one bash PreToolUse command
 * hook (the guard of bench/vs-claude-code.ts). acai is started with
 * `node --import bench/support/cpu-probe.mjs`, which notes the process's CPU
 * time (user + system, all its threads, not its children: the hook and the
 * Bash call are not in it) at each model request. CPU time per tool-call turn =
 * (CPU at the last request − CPU at the second) / (CALLS − 1): start-up, the
 * first turn and exit are left out. CPU time is stable under load where wall
 * time is not. The hook step's cost = the turn with the hook − without (a run's
 * median session each). Sessions alternate (order reversed every other
 * repetition); acai without hooks runs twice a repetition, the second printed as
 * NOISE; three runs.
 *
 *   npm run build && node bench/hook-cpu.ts [--calls 30] [--reps 4] [--cli dist/bundle/main.js] [--versus OTHER/dist/bundle/main.js]
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeAnthropic } from "./support/fake-anthropic.ts";
import { median, numberArg, threeRuns } from "./support/result.ts";

const cliAt = process.argv.indexOf("--cli");
const CLI =
  cliAt > 0
    ? path.resolve(process.argv[cliAt + 1] ?? "")
    : fileURLToPath(new URL("../dist/bundle/main.js", import.meta.url));
const PROBE = fileURLToPath(new URL("./support/cpu-probe.mjs", import.meta.url));
const CALLS = Math.max(3, numberArg("calls", 30));
const REPS = numberArg("reps", 4);
const GUARD_BASH = `payload="$(cat)"\ncase "$payload" in *'rm -rf /'*) echo "blocked: rm -rf /" >&2; exit 2;; esac\nexit 0\n`;

type Kind = "none" | "control" | "bash";
const KINDS: Kind[] = ["none", "control", "bash"];

async function setUp(root: string): Promise<Map<Kind, string>> {
  const script = path.join(root, "guard.sh");
  await writeFile(script, GUARD_BASH);
  const homes = new Map<Kind, string>();
  for (const kind of KINDS) {
    const acaiHome = path.join(root, `home-${kind}`, ".acai");
    await mkdir(acaiHome, { recursive: true });
    const hooks =
      kind === "bash"
        ? {
            PreToolUse: [
              { matcher: "Bash", hooks: [{ type: "command", command: `bash ${script}` }] },
            ],
          }
        : undefined;
    await writeFile(path.join(acaiHome, "settings.json"), JSON.stringify(hooks ? { hooks } : {}));
    homes.set(kind, acaiHome);
  }
  return homes;
}

/** One session: acai's CPU ms per tool-call turn (second request to last). */
async function session(
  cli: string,
  url: string,
  cwd: string,
  acaiHome: string,
  root: string,
): Promise<number> {
  const cpuFile = path.join(root, "cpu.json");
  const env: Record<string, string> = {
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: path.dirname(acaiHome),
    ACAI_HOME: acaiHome,
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: "sk-ant-bench-not-a-key",
    ACAI_BENCH_CPU_FILE: cpuFile,
  };
  const args = ["--import", PROBE, cli, "-p", "go", "--allowedTools", "Bash"];
  args.push("--model", "anthropic:claude-sonnet-4-5", "--max-steps", String(CALLS + 5));
  const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  const marks: number[] = JSON.parse(await readFile(cpuFile, "utf8").catch(() => "[]"));
  if (code !== 0 || marks.length !== CALLS + 1)
    throw new Error(`acai exited ${code} after ${marks.length} requests: ${stderr.slice(-400)}`);
  return ((marks.at(-1) ?? 0) - (marks[1] ?? 0)) / (CALLS - 1);
}

type Figure = { none: number; hook: number; noise: number };
const versusAt = process.argv.indexOf("--versus");
/** `--versus OTHER_BUNDLE`: the same sessions with another build, interleaved (its figures and after/before ratio). */
const VERSUS = versusAt > 0 ? path.resolve(process.argv[versusAt + 1] ?? "") : undefined;
const CLIS = VERSUS === undefined ? [CLI] : [CLI, VERSUS];

/** One run: REPS sessions of every build and kind, the order reversed every other repetition. */
async function oneRun(run: (cli: string, kind: Kind) => Promise<number>): Promise<Figure[]> {
  const pairs = CLIS.flatMap((cli) => KINDS.map((kind) => [cli, kind] as const));
  const cpu = new Map<string, number[]>(pairs.map(([c, k]) => [`${c}/${k}`, []]));
  for (let rep = 0; rep < REPS; rep++)
    for (const [cli, kind] of rep % 2 ? [...pairs].reverse() : pairs)
      cpu.get(`${cli}/${kind}`)?.push(await run(cli, kind));
  return CLIS.map((cli) => {
    const at = (k: Kind) => median(cpu.get(`${cli}/${k}`) ?? []);
    return { none: at("none"), hook: at("bash") - at("none"), noise: at("control") - at("none") };
  });
}

function report(label: string, values: Figure[], load: string): void {
  const list = (k: keyof Figure) => values.map((v) => v[k].toFixed(2)).join(", ");
  const mid = (k: keyof Figure) => median(values.map((v) => v[k])).toFixed(2);
  console.log(
    `CPU ${label}: acai per tool-call turn without hooks ${mid("none")} ms (runs ${list("none")}); ${load}`,
  );
  console.log(
    `CPU ${label}: added per tool-call turn by one bash command hook ${mid("hook")} ms (runs ${list("hook")}); ${load}`,
  );
  console.log(
    `NOISE ${label}: acai without hooks again over without ${mid("noise")} ms (runs ${list("noise")}); ${load}`,
  );
}

const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-hook-cpu-"));
const server = await startFakeAnthropic(CALLS, "true");
try {
  const cwd = path.join(root, "project");
  await mkdir(cwd);
  execFileSync("git", ["init", "-q"], { cwd });
  const homes = await setUp(root);
  const run = (cli: string, kind: Kind) =>
    session(cli, server.url, cwd, homes.get(kind) ?? "", root);
  console.log(
    `acai CPU per tool-call turn: ${CALLS} Bash calls a session, ${REPS} sessions per build and kind a run; ${CLIS.join(" vs ")}`,
  );
  for (const cli of CLIS) for (const kind of KINDS) await run(cli, kind); // warm-up
  const { values, loads } = await threeRuns(async (n) => {
    const figures = await oneRun(run);
    for (const [i, f] of figures.entries())
      console.log(
        `run ${n + 1} ${CLIS[i]}: turn without hooks ${f.none.toFixed(2)} ms CPU; bash hook adds ${f.hook.toFixed(2)} ms; noise ${f.noise.toFixed(2)} ms`,
      );
    return figures;
  });
  const load = `load ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`;
  for (const [i, cli] of CLIS.entries())
    report(
      i === 0 ? "this build" : `versus ${cli}`,
      values.map((v) => v[i] as Figure),
      load,
    );
  if (VERSUS !== undefined) {
    const ratios = values.map((v) => (v[0]?.hook ?? Number.NaN) / (v[1]?.hook ?? Number.NaN));
    console.log(
      `RATIO hook's added CPU, this build / versus: ${median(ratios).toFixed(3)}× (runs ${ratios.map((r) => r.toFixed(3)).join(", ")}); ${load}`,
    );
  }
} finally {
  server.close();
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
}
