/**
 * `acai -p` sends its model request without loading undici or TLS (decision
 * 0067): Node's `fetch` and `Headers` load all of undici (~50 ms of CPU
 * before the first request), an ES import of `node:http` does too, and
 * `node:https` loads TLS. A recorder loaded with `--import` writes Node's list
 * of loaded built-in modules when the first HTTP request starts, and again
 * at exit.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { runWithPreload } from "../support/preloaded-start.js";
import { type AcaiDirs, makeAcaiDirs } from "../support/run-acai.js";

function recorderSource(out: string): string {
  return `import { subscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";
const seen = {};
const save = (moment) => { seen[moment] = [...process.moduleLoadList]; writeFileSync(${JSON.stringify(out)}, JSON.stringify(seen)); };
subscribe("http.client.request.start", () => { if (!seen.request) save("request"); });
process.on("exit", () => save("exit"));
`;
}

let dirs: AcaiDirs;
let server: FakeOpenAIServer;
beforeEach(async () => {
  dirs = await makeAcaiDirs();
  server = await startFakeOpenAI([{ text: "the answer" }]);
});
afterEach(async () => {
  await server.close();
  await dirs.cleanup();
});

describe("acai -p's model request", () => {
  it("goes over node:http: neither undici nor TLS is loaded, before the request or after", async () => {
    const out = path.join(dirs.root, "loaded.json");
    const result = await runWithPreload(dirs, server, recorderSource(out));
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("the answer");
    expect(server.requests).toHaveLength(1);
    const seen = JSON.parse(await readFile(out, "utf8")) as Record<string, string[]>;
    // The recorder saw the request go out over node:http (so what follows means something).
    expect(seen.request).toContain("NativeModule _http_client");
    for (const moment of ["request", "exit"]) {
      const loaded = seen[moment] ?? [];
      expect(loaded.length, moment).toBeGreaterThan(50);
      expect(
        loaded.filter((name) => /undici|\btls\b/.test(name)),
        moment,
      ).toEqual([]);
    }
  });
});
