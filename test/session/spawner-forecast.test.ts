/**
 * The spawners a session foresees (session/spawner-forecast.ts): which command
 * lines foresee, what the file holds and when it is written, that its keys are
 * computed from the arguments (never read), and that anything unsound in it is
 * ignored.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { launchKey } from "../../source/process/launch-key.js";
import type { SandboxLaunch, SpawnerKind } from "../../source/process/types.js";
import { forecastFile } from "../../source/session/forecast-file.js";
import {
  forecastApplies,
  foreseeSpawners,
  readForecast,
  settleForecast,
} from "../../source/session/spawner-forecast.js";

let cacheDir: string;
const cwd = "/work/project";

beforeEach(async () => {
  cacheDir = await mkdtemp(path.join(tmpdir(), "acai-forecast-"));
});
afterEach(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

function launch(name: string, extra: string[] = [], helper: SpawnerKind = "python"): SandboxLaunch {
  const bwrapArgs = ["--ro-bind", "/", "/", "--bind", cwd, cwd, ...extra];
  return { key: launchKey(bwrapArgs, helper), name, bwrapArgs, helper };
}

function settle(launches: SandboxLaunch[], foreseeable = (_: SandboxLaunch) => true) {
  let dropped = 0;
  settleForecast({
    cacheDir,
    cwd,
    launcher: { dropUnclaimed: () => dropped++ },
    launches,
    foreseeable,
  });
  return dropped;
}

describe("the spawner forecast", () => {
  it("applies to acai -p, not with the project left out nor to other commands", () => {
    expect(forecastApplies(["-p", "hi"])).toBe(true);
    expect(forecastApplies(["--print", "hi", "--model", "x"])).toBe(true);
    expect(forecastApplies(["--print=hi"])).toBe(true);
    expect(forecastApplies(["-p", "hi", "--no-project"])).toBe(false);
    expect(forecastApplies(["-p", "hi", "--no-project-hooks"])).toBe(false);
    expect(forecastApplies(["hooks", "list"])).toBe(false);
    expect(forecastApplies([])).toBe(false);
  });

  it("keeps the session's launches for the folder, and the next session reads them back with their keys", () => {
    const start = launch("default", ["--bind", "/home/u/.acai/session-env", "/x"]);
    const prompt = launch("default");
    expect(settle([start, prompt])).toBe(1);
    expect(readForecast(forecastFile(cacheDir, cwd), cwd)).toEqual([start, prompt]);
    // Another folder foresees nothing from it.
    expect(readForecast(forecastFile(cacheDir, "/elsewhere"), "/elsewhere")).toEqual([]);
    const foreseen: SandboxLaunch[] = [];
    foreseeSpawners({ cacheDir, cwd, launcher: { foresee: (l) => foreseen.push(l) } });
    expect(foreseen).toEqual([start, prompt]);
  });

  it("leaves out what names this session only, rewrites only on a change, and removes the file when there is none", () => {
    const file = forecastFile(cacheDir, cwd);
    const bridged = launch("net", ["--bind", "/tmp/acai-bridge-123", "/tmp/acai-bridge-123"]);
    const plain = launch("default");
    settle([bridged, plain], (l) => l !== bridged);
    expect(readForecast(file, cwd)).toEqual([plain]);
    const before = statSync(file);
    settle([plain]);
    expect(statSync(file).ino).toBe(before.ino); // the same: not written again
    settle([launch("default", ["--ro-bind", "/opt", "/opt"])]);
    expect(statSync(file).ino).not.toBe(before.ino);
    settle([]);
    expect(existsSync(file)).toBe(false);
  });

  it("keys a launch by its spawner kind too: the same arguments with the other kind are another launch", () => {
    const file = forecastFile(cacheDir, cwd);
    const python = launch("default");
    const node = launch("default", [], "node");
    expect(node.bwrapArgs).toEqual(python.bwrapArgs);
    expect(node.key).not.toBe(python.key);
    settle([python]);
    const before = statSync(file);
    settle([node]);
    expect(statSync(file).ino).not.toBe(before.ino); // a change: written again
    expect(readForecast(file, cwd)).toEqual([node]);
  });

  it("ignores a file that does not parse, has unknown fields, is too large or names another folder", () => {
    const file = forecastFile(cacheDir, cwd);
    mkdirSync(path.dirname(file), { recursive: true });
    const d = { name: "d", bwrapArgs: ["--ro-bind", "/", "/"], helper: "node" };
    const good = { version: 2, cwd, launches: [d] };
    writeFileSync(file, JSON.stringify(good));
    expect(readForecast(file, cwd)).toHaveLength(1);
    for (const bad of [
      "{not json",
      JSON.stringify({ ...good, cwd: "/elsewhere" }),
      // A key in the file is refused: the key is always computed from the arguments.
      JSON.stringify({ ...good, launches: [{ ...good.launches[0], key: "0000000000000000" }] }),
      // Version 1 named no spawner kind.
      JSON.stringify({ ...good, version: 1, launches: [{ name: "d", bwrapArgs: d.bwrapArgs }] }),
      JSON.stringify({ ...good, launches: [{ ...d, helper: "perl" }] }),
      JSON.stringify({ ...good, launches: [{ name: "d", bwrapArgs: d.bwrapArgs }] }),
      JSON.stringify({ ...good, launches: [{ ...d, bwrapArgs: "--ro-bind / /" }] }),
      JSON.stringify({ ...good, padding: "x".repeat(70_000) }),
    ]) {
      writeFileSync(file, bad);
      expect(readForecast(file, cwd)).toEqual([]);
    }
    expect(readForecast(path.join(cacheDir, "missing.json"), cwd)).toEqual([]);
    expect(JSON.parse(readFileSync(file, "utf8"))).toHaveProperty("padding");
  });
});
