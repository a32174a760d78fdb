/**
 * Memory search over 100,000 memories: fills a fresh store (one SQLite file,
 * FTS5, as `@memory:save` writes it) with 100,000 generated memories spread
 * over 20 projects plus user-wide ones, then times searches the way
 * `@memory:search` runs them (this project's and the user-wide memories, 10
 * results, bm25 order): rare words, common words, a many-word query, a query
 * with no match, and a query full of FTS syntax. Prints the median and p90 of
 * each (`--runs N`, default 200), the insert rate, the file size, and the
 * ratio of a search to a `list` (the recent-first scan without FTS) measured
 * in the same run.
 *
 * Run (Node 24 strips the types itself; the bench uses the built code):
 *   npx tsc -p tsconfig.json && node bench/memory-search.ts
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { MemoryStore, type MemoryView } from "../dist/memory/store.js";

const MEMORIES = 100_000;
const PROJECTS = 20;
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 200;

const WORDS = (
  "build test deploy staging production database migration schema cache token auth cookie " +
  "session user prefers dark mode typescript javascript python rust go docker kubernetes " +
  "pnpm npm yarn vite webpack esbuild lint format prettier biome eslint api endpoint route " +
  "handler queue worker cron job retry timeout latency memory leak profile flame graph " +
  "index query join transaction lock deadlock replica shard backup restore secret vault"
).split(" ");

/** A deterministic pseudo-random generator (the same corpus every run). */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(random: () => number, i: number): string {
  const words: string[] = [];
  const n = 8 + Math.floor(random() * 16);
  for (let w = 0; w < n; w++) words.push(WORDS[Math.floor(random() * WORDS.length)] as string);
  // One rare word per memory: "zeta<i>" occurs once in the corpus.
  words.push(`zeta${i}`);
  return words.join(" ");
}

function stats(samples: number[]): { median: number; p90: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { median: at(0.5), p90: at(0.9) };
}

function time(work: () => unknown): number[] {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  return samples;
}

const dir = mkdtempSync(path.join(os.tmpdir(), "acai-bench-memory-"));
const file = path.join(dir, "memory.db");
try {
  const store = await MemoryStore.open(file);
  const random = rng(42);
  const fillStart = performance.now();
  store.transaction(() => {
    for (let i = 0; i < MEMORIES; i++) {
      const p = i % (PROJECTS + 1);
      store.save({
        content: sentence(random, i),
        project: p === PROJECTS ? null : `/projects/p${p}`,
      });
    }
  });
  const fillMs = performance.now() - fillStart;
  const view: MemoryView = { kind: "project", project: "/projects/p3" };
  const queries: [string, string][] = [
    ["rare word (1 match)", "zeta4203"],
    ["two common words", "deploy staging"],
    ["eight words", "user prefers dark mode in the typescript build"],
    ["no match", "quokka"],
    ["FTS syntax as words", '"deploy" NEAR(staging*) OR -x content:y ('],
  ];
  console.log(
    `memory search over ${MEMORIES.toLocaleString("en")} memories (${PROJECTS} projects + user-wide), ${RUNS} runs each`,
  );
  console.log(
    `fill: ${(fillMs / 1000).toFixed(1)} s (${Math.round(MEMORIES / (fillMs / 1000)).toLocaleString("en")} saves/s in one transaction); file ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB`,
  );
  const list = stats(time(() => store.list(view, 10)));
  console.log(
    `list (10 most recent, no FTS): median ${list.median.toFixed(3)} ms, p90 ${list.p90.toFixed(3)} ms`,
  );
  for (const [label, query] of queries) {
    const found = store.search(query, view, 10).length;
    const s = stats(time(() => store.search(query, view, 10)));
    console.log(
      `search ${label.padEnd(22)} ${String(found).padStart(2)} results: median ${s.median.toFixed(3)} ms, p90 ${s.p90.toFixed(3)} ms (${(s.median / Math.max(list.median, 0.001)).toFixed(1)}x list)`,
    );
  }
  const all = stats(time(() => store.search("deploy staging", { kind: "all" }, 10)));
  console.log(
    `search two common words, every project: median ${all.median.toFixed(3)} ms, p90 ${all.p90.toFixed(3)} ms`,
  );
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
