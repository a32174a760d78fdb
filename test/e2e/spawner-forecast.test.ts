/**
 * Spawners foreseen through `acai -p` (session/spawner-forecast.ts, decision
 * 0055): a session with a sandboxed session_start hook leaves its launch for
 * the next one in the same folder, which starts that spawner first thing and
 * takes it — one spawner started, not two — with the hook run exactly as
 * before; a forecast naming other bwrap arguments (a looser sandbox) is never
 * used, nor one of the same sandbox with the other kind of spawner (Python
 * or Node, decision 0059), and its spawner does not outlive acai, also when
 * acai stops at an untrusted project.
 *
 * A `bwrap` on PATH ahead of the real one logs every start, so the test sees
 * which spawners each run started (TMPDIR of its own, as in sandbox.test.ts).
 */
import { existsSync, statSync } from "node:fs";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { launchKey } from "../../source/process/launch-key.js";
import { forecastFile } from "../../source/session/forecast-file.js";
import { readForecast } from "../../source/session/spawner-forecast.js";
import { pidsWith, survivors } from "../process/survivors.js";
import { bwrapWorks } from "../support/bwrap.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE } from "./helpers.js";

let dirs: AcaiDirs;
let tmp: string;
let bin: string;
let server: FakeOpenAIServer | undefined;
const FORGED = "ACAI_FORGED_FORECAST_7d1e";

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-forecast-e2e-");
  tmp = path.join(dirs.root, "tmp");
  bin = path.join(dirs.root, "bin");
  await mkdir(tmp);
  await mkdir(bin);
  // Logs each start (one line: its arguments), then is the real bwrap.
  const real = (process.env.PATH ?? "")
    .split(":")
    .map((dir) => path.join(dir, "bwrap"))
    .find((file) => existsSync(file));
  await writeFile(
    path.join(bin, "bwrap"),
    `#!/bin/sh\nprintf '%s\\n' "$*" >> ${path.join(dirs.root, "bwrap.log")}\nexec ${real} "$@"\n`,
  );
  await chmod(path.join(bin, "bwrap"), 0o755);
  const hooks = path.join(dirs.acaiHome, "hooks");
  await mkdir(hooks);
  // A user's session_start hook: what it sees of the sandbox, and whether it could write outside.
  await writeFile(
    path.join(hooks, "start"),
    `#!/bin/sh
if [ "$HOOK_ACTION" = describe ]; then echo '{"name":"start","events":["session_start"]}'; exit 0; fi
cat >/dev/null
if echo x > ${path.join(dirs.home, "escaped")} 2>/dev/null; then w=wrote; else w=refused; fi
echo "sandbox=$ACAI_SANDBOX policy=$ACAI_SANDBOX_POLICY forged=$${FORGED} outside=$w" >> ${path.join(tmp, "start.out")}
`,
  );
  await chmod(path.join(hooks, "start"), 0o755);
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const pid of pidsWith(FORGED)) process.kill(pid, "SIGKILL");
  await dirs.cleanup();
});

async function run(args: string[] = []) {
  server = await startFakeOpenAI([{ text: "ok" }]);
  await rm(path.join(dirs.root, "bwrap.log"), { force: true });
  const result = await runAcai({
    args: ["-p", "hi", ...modelArgs("chat", server), ...args],
    dirs,
    baseUrl: server.url,
    env: { TMPDIR: tmp, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` },
    timeoutMs: 60_000,
  });
  await server.close();
  server = undefined;
  expect(result.stderr).not.toMatch(STACK_TRACE);
  const log = await readFile(path.join(dirs.root, "bwrap.log"), "utf8").catch(() => "");
  // The spawners' starts: their command is the system's Python or acai's Node with the spawner script.
  const spawners = log
    .split("\n")
    .filter((line) => / -(e|I -S -c) /.test(line) && line.includes("acai-spawner-"));
  return { ...result, spawners };
}

const file = () => forecastFile(path.join(dirs.acaiHome, "cache"), dirs.cwd);

describe.runIf(bwrapWorks)("spawners foreseen by acai -p", () => {
  it("the next session in the folder starts the last one's spawner first thing and takes it; the hook runs as before", async () => {
    const first = await run();
    expect(first.exitCode, first.stderr).toBe(0);
    const foreseen = readForecast(file(), dirs.cwd);
    expect(foreseen).toHaveLength(1);
    // Private, as the rest of ACAI_HOME.
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file())).mode & 0o777).toBe(0o700);
    const [launch] = foreseen;
    const started = (spawners: string[]) =>
      spawners.filter((line) => line.startsWith(launch?.bwrapArgs.join(" ") ?? "-"));
    expect(started(first.spawners)).toHaveLength(1);
    const second = await run();
    expect(second.exitCode, second.stderr).toBe(0);
    // Foreseen and taken: one start for the policy, as without a forecast — not a second one.
    expect(started(second.spawners)).toHaveLength(1);
    expect(second.spawners).toHaveLength(1);
    const lines = (await readFile(path.join(tmp, "start.out"), "utf8")).trim().split("\n");
    expect(lines).toEqual([
      "sandbox=1 policy=default forged= outside=refused",
      "sandbox=1 policy=default forged= outside=refused",
    ]);
  }, 120_000);

  it("a forecast naming a looser sandbox is not used, and its spawner does not outlive acai", async () => {
    expect((await run()).exitCode).toBe(0);
    const [launch] = readForecast(file(), dirs.cwd);
    // HOME writable, and a variable to see whether the hook ran in it.
    const forged = [
      ...(launch?.bwrapArgs ?? []),
      "--setenv",
      FORGED,
      "yes",
      "--bind",
      dirs.home,
      dirs.home,
    ];
    await writeFile(
      file(),
      JSON.stringify({
        version: 2,
        cwd: dirs.cwd,
        launches: [{ name: "default", bwrapArgs: forged, helper: launch?.helper }],
      }),
    );
    expect(launchKey(forged, launch?.helper ?? "node")).not.toBe(launch?.key);
    const second = await run();
    expect(second.exitCode, second.stderr).toBe(0);
    // Started ahead (the forecast was read), then stopped unused; the session started its own.
    expect(second.spawners.filter((line) => line.includes(FORGED))).toHaveLength(1);
    expect(second.spawners).toHaveLength(2);
    expect(await survivors(FORGED)).toEqual([]);
    const lines = (await readFile(path.join(tmp, "start.out"), "utf8")).trim().split("\n");
    expect(lines[1]).toBe("sandbox=1 policy=default forged= outside=refused");
    // The session's own launch is what the next one foresees.
    expect(readForecast(file(), dirs.cwd)).toEqual([launch]);
  }, 120_000);

  it("a forecast of the same sandbox with the other kind of spawner is not used", async () => {
    expect((await run()).exitCode).toBe(0);
    const [launch] = readForecast(file(), dirs.cwd);
    expect(launch?.helper).toBe(existsSync("/usr/bin/python3") ? "python" : "node");
    const other = launch?.helper === "python" ? "node" : "python";
    await writeFile(
      file(),
      JSON.stringify({
        version: 2,
        cwd: dirs.cwd,
        launches: [{ name: "default", bwrapArgs: launch?.bwrapArgs, helper: other }],
      }),
    );
    expect(readForecast(file(), dirs.cwd)[0]?.key).not.toBe(launch?.key);
    const second = await run();
    expect(second.exitCode, second.stderr).toBe(0);
    // The foreseen one (the other kind) started and was stopped unused; the session started its own.
    const kind = (line: string) => (line.includes(" -I -S -c ") ? "python" : "node");
    expect(second.spawners.map(kind)).toEqual([other, launch?.helper]);
    expect(readForecast(file(), dirs.cwd)).toEqual([launch]);
    const lines = (await readFile(path.join(tmp, "start.out"), "utf8")).trim().split("\n");
    expect(lines[1]).toBe("sandbox=1 policy=default forged= outside=refused");
  }, 120_000);

  it("acai stopping at an untrusted project leaves no foreseen spawner behind", async () => {
    expect((await run()).exitCode).toBe(0);
    const [launch] = readForecast(file(), dirs.cwd);
    const forged = ["--setenv", FORGED, "yes", ...(launch?.bwrapArgs ?? [])];
    await writeFile(
      file(),
      JSON.stringify({
        version: 2,
        cwd: dirs.cwd,
        launches: [{ name: "default", bwrapArgs: forged, helper: launch?.helper }],
      }),
    );
    // A project hook nobody trusted: acai -p exits 4 before any hook runs.
    await mkdir(path.join(dirs.cwd, ".acai", "hooks"), { recursive: true });
    await writeFile(path.join(dirs.cwd, ".acai", "hooks", "new"), "#!/bin/sh\nexit 0\n");
    await chmod(path.join(dirs.cwd, ".acai", "hooks", "new"), 0o755);
    const refused = await run();
    expect(refused.exitCode, refused.stderr).toBe(4);
    expect(await survivors(FORGED)).toEqual([]);
    expect((await readFile(path.join(tmp, "start.out"), "utf8")).trim().split("\n")).toHaveLength(
      1,
    );
  }, 120_000);
});
