/**
 * `acai -p` builds none of acai's own zod schemas before its first model
 * request (decisions 0054, 0060): each module's schema is a `z.lazy` (or a
 * function) built at its first parse, so what is built before the request in
 * an empty folder is only those wrappers. A recorder loaded with `--import`
 * sees every schema zod constructs (zod calls its global config's
 * `postProcessor` with each), finds the bundle module that asked for it (the
 * first stack frame outside zod, and that chunk's `// source/…` mark above
 * the line), and writes what it saw when the first HTTP request starts.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { runWithPreload } from "../support/preloaded-start.js";
import { type AcaiDirs, makeAcaiDirs } from "../support/run-acai.js";

interface Built {
  /** The bundle section that asked: `source/…` or `node_modules/…`. */
  module: string;
  /** zod's type of what it built (`lazy`, `object`, `string`, …). */
  type: string;
}

/** The recorder: each chunk's `// source/…` marks read once; the asker is the module whose top level runs, else the first frame outside zod's chunk. */
function recorderSource(out: string): string {
  return `import { subscribe } from "node:diagnostics_channel";
import { readFileSync, writeFileSync } from "node:fs";
const marks = new Map();
function sectionOf(url, line) {
  let list = marks.get(url);
  if (!list) {
    list = [];
    readFileSync(new URL(url), "utf8").split("\\n").forEach((text, i) => {
      const m = /^\\/\\/ (?:\\S*?\\/)?((?:source|node_modules)\\/\\S+)$/.exec(text);
      if (m) list.push([i + 1, m[1]]);
    });
    marks.set(url, list);
  }
  let found = "?";
  for (const [at, name] of list) { if (at > line) break; found = name; }
  return found;
}
const zodChunks = new Map();
function isZodChunk(url) {
  if (!zodChunks.has(url)) zodChunks.set(url, readFileSync(new URL(url), "utf8").includes("node_modules/zod/v4/core/core.js\\n"));
  return zodChunks.get(url);
}
const built = [];
let sent = false;
Error.stackTraceLimit = 50;
globalThis.__zod_globalConfig = { postProcessor(inst) {
  if (sent) return;
  // The module whose top level runs — an unnamed frame (its statements stay in place in the
  // chunk), or the body esbuild wrapped to run at its first require, named by the module
  // (decision 0062) — else the first frame of a chunk that is not zod's (a function called later).
  const frames = new Error().stack.split("\\n").slice(2);
  let module = "?";
  for (const frame of frames) {
    const m = /^\\s+at (file:\\/\\/\\S+\\/dist\\/bundle\\/\\S+?\\.js):(\\d+):\\d+$/.exec(frame);
    if (m) { module = sectionOf(m[1], Number(m[2])); break; }
    const wrapped = /^\\s+at (?:Object\\.)?((?:source|node_modules)\\/\\S+) \\(file:\\/\\/\\S+\\/dist\\/bundle\\/\\S+?\\.js:\\d+:\\d+\\)$/.exec(frame);
    if (wrapped) { module = wrapped[1]; break; }
  }
  if (module === "?") {
    for (const frame of frames) {
      const m = /\\((file:\\/\\/\\S+\\/dist\\/bundle\\/\\S+?\\.js):(\\d+):\\d+\\)$/.exec(frame);
      if (!m || isZodChunk(m[1])) continue;
      module = sectionOf(m[1], Number(m[2]));
      break;
    }
  }
  built.push({ module, type: inst._zod.def.type });
} };
// The model request goes over node:http (decision 0067): Node announces each client request here.
subscribe("http.client.request.start", () => {
  if (!sent) { sent = true; writeFileSync(${JSON.stringify(out)}, JSON.stringify(built)); }
});
`;
}

let dirs: AcaiDirs;
let server: FakeOpenAIServer;
beforeEach(async () => {
  dirs = await makeAcaiDirs();
  server = await startFakeOpenAI([{ text: "ok" }]);
});
afterEach(async () => {
  await server.close();
  await dirs.cleanup();
});

describe("acai -p before its first model request", () => {
  it("builds only lazy wrappers of acai's own schemas (an empty folder)", async () => {
    const out = path.join(dirs.root, "built.json");
    const result = await runWithPreload(dirs, server, recorderSource(out));
    expect(result.exitCode, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    const built = JSON.parse(await readFile(out, "utf8")) as Built[];
    // The recorder saw the AI SDK's schemas, built when its modules load (so what follows means something).
    expect(built.filter((b) => b.module.startsWith("node_modules/ai/")).length).toBeGreaterThan(50);
    const unattributed = built.filter((b) => b.module === "?");
    expect(unattributed).toEqual([]);
    const acais = built.filter((b) => b.module.startsWith("source/"));
    expect(acais.length).toBeGreaterThan(0);
    const eager = acais.filter((b) => b.type !== "lazy");
    expect(
      eager,
      "acai's schemas built before the request that are not a z.lazy: make a module-level schema a z.lazy, or a function its user calls (decision 0060)",
    ).toEqual([]);
  });
});
