/**
 * `hookDefaults.maxHooks` (the original design's bound on hooks), end to end:
 * past the bound, the hooks last in run order are not loaded for the event,
 * a warning names them, and they do not run. A project's settings cannot
 * lower it (it would leave out the user's own guards).
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

async function userHook(d: AcaiDirs, name: string, priority: number): Promise<void> {
  const file = path.join(d.acaiHome, "hooks", name);
  await mkdir(path.dirname(file), { recursive: true });
  const metadata = JSON.stringify({ name, events: ["user_prompt"], priority });
  await writeFile(
    file,
    `#!/bin/sh\nif [ "$HOOK_ACTION" = describe ]; then echo '${metadata}'; exit 0; fi\ncat >/dev/null\n: > "$HOOK_E2E_DIR/${name}-ran"\n`,
  );
  await chmod(file, 0o755);
}

describe("hookDefaults.maxHooks through acai -p", () => {
  it("loads the first hooks of an event in run order and names the rest", async () => {
    dirs = await makeAcaiDirs("acai-max-hooks-");
    await userHook(dirs, "first", 900);
    await userHook(dirs, "second", 500);
    await userHook(dirs, "third", 100);
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({ hookDefaults: { maxHooks: 2 } }),
    );
    await mkdir(path.join(dirs.cwd, ".acai"), { recursive: true });
    await writeFile(
      path.join(dirs.cwd, ".acai", "settings.json"),
      JSON.stringify({ hookDefaults: { maxHooks: 1 } }),
    );
    server = await startFakeOpenAI([{ text: "done" }]);
    const result = await runAcai({
      dirs,
      args: ["-p", "go", "--trust-project-hooks", ...modelArgs("chat", server)],
      baseUrl: server.url,
      env: { HOOK_E2E_DIR: dirs.root },
      timeoutMs: 30_000,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /user_prompt has 3 hooks, more than maxHooks \(2\): not loaded for it, last in run order: third \(/,
    );
    expect(existsSync(path.join(dirs.root, "first-ran"))).toBe(true);
    expect(existsSync(path.join(dirs.root, "second-ran"))).toBe(true);
    expect(existsSync(path.join(dirs.root, "third-ran"))).toBe(false);
  });
});
