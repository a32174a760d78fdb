/**
 * Start-up cost of hook discovery with 100 executable hooks.
 *
 * Run (Node 24 strips the types itself; the bench uses the built code):
 *   cd /work/main && export PATH="$PWD/node_modules/.bin:$PATH"
 *   npx tsc -p tsconfig.json && node bench/hooks-startup.ts
 *
 * Measures scanHookSources + loadHookRegistry (project trusted, real process
 * runner) for: no hooks; 100 hooks with an empty metadata cache (cold: every
 * hook is spawned with HOOK_ACTION=describe); 100 hooks with a warm cache
 * (nothing spawned). Target: warm adds < 50 ms over no hooks.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { metadataCachePath } from "../dist/hooks/discover/metadata-cache.js";
import { loadHookRegistry, scanHookSources } from "../dist/hooks/discover/registry.js";
import { runProcess } from "../dist/process/runner.js";
import { median, printResult, threeRuns } from "./support/result.ts";

const HOOKS = 100;
const WARM_RUNS = 30;
const COLD_RUNS = 3;

const root = await mkdtemp(path.join(os.tmpdir(), "acai-bench-startup-"));
const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root };

async function makeProject(
  name: string,
  hooks: number,
): Promise<{ projectDir: string; acaiHome: string }> {
  const projectDir = path.join(root, name);
  const acaiHome = path.join(root, `${name}-home`);
  const hooksDir = path.join(projectDir, ".acai", "hooks");
  await mkdir(hooksDir, { recursive: true });
  await mkdir(acaiHome, { recursive: true });
  for (let i = 0; i < hooks; i++) {
    const metadata = {
      name: `hook-${i}`,
      events: [i % 2 === 0 ? "PreToolUse" : "after_tool"],
      matcher: { tool: i % 3 === 0 ? "Bash" : "Edit|Write", pattern: `needle-${i}` },
      priority: i,
    };
    const file = path.join(hooksDir, `hook-${String(i).padStart(3, "0")}`);
    await writeFile(
      file,
      `#!/bin/sh\nif [ "$HOOK_ACTION" = describe ]; then\n  echo '${JSON.stringify(metadata)}'\n  exit 0\nfi\ncat >/dev/null\n`,
    );
    await chmod(file, 0o755);
  }
  return { projectDir, acaiHome };
}

async function startUp(project: {
  projectDir: string;
  acaiHome: string;
}): Promise<{ ms: number; hooks: number }> {
  const started = performance.now();
  const scan = await scanHookSources({
    projectDir: project.projectDir,
    acaiHome: project.acaiHome,
    homeDir: root,
    settingsFiles: [],
  });
  const registry = await loadHookRegistry(scan, {
    includeProject: true,
    runner: runProcess,
    env,
    acaiHome: project.acaiHome,
    projectDir: project.projectDir,
  });
  const ms = performance.now() - started;
  if (registry.broken.length > 0)
    throw new Error(`broken hooks: ${JSON.stringify(registry.broken[0])}`);
  return { ms, hooks: registry.hooks.length };
}

try {
  const empty = await makeProject("empty", 0);
  const full = await makeProject("full", HOOKS);

  // Warm up the module graph and the file system cache for both projects.
  await startUp(empty);

  const cold: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    await rm(metadataCachePath(full.acaiHome), { force: true });
    const run = await startUp(full);
    if (run.hooks !== HOOKS) throw new Error(`expected ${HOOKS} hooks, got ${run.hooks}`);
    cold.push(run.ms);
  }

  const { values, loads } = await threeRuns(async () => {
    const none: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      none.push((await startUp(empty)).ms);
      warm.push((await startUp(full)).ms);
    }
    return { none: median(none), warm: median(warm) };
  });
  const noneMs = median(values.map((v) => v.none));
  const warmMs = median(values.map((v) => v.warm));
  const coldMs = median(cold);
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(
    `hooks-startup (${HOOKS} executable hooks, node ${process.version}, ${os.cpus().length} CPUs)`,
  );
  console.log(`  no hooks        median ${fmt(noneMs)} (three runs of ${WARM_RUNS})`);
  console.log(
    `  cold (no cache) median ${fmt(coldMs)} over ${COLD_RUNS} runs (${HOOKS} describe spawns)`,
  );
  console.log(`  warm (cached)   median ${fmt(warmMs)} (three runs of ${WARM_RUNS}; 0 spawns)`);
  console.log(`  cold overhead   ${fmt(coldMs - noneMs)}`);
  const added = values.map((v) => v.warm - v.none);
  printResult({
    name: `scan and registry with ${HOOKS} executable hooks (metadata cached) vs none`,
    ratios: values.map((v) => v.warm / v.none),
    loads,
    detail: `warm adds ${added.map(fmt).join(", ")} (target < 50 ms: ${median(added) < 50 ? "met" : "NOT met"})`,
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
