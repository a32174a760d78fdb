/**
 * Spawner socket folders of an acai killed outright (decision 0065), through
 * `acai -p`: three acais share one temp folder, each held in a session_start
 * hook (run through acai's spawn helper, whose socket folder carries acai's
 * pid). One is SIGKILLed: its folder stays (no exit event) but its helper
 * does not (it sees its stdin close). A third acai starting afterwards
 * removes the dead one's folder in the background, and leaves the live one's
 * (so does the live one, should its helper start again meanwhile).
 * The sockets are dated back past the minute a refused socket is spared.
 */
import { existsSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spawnersFolder } from "../../source/process/spawner-folder.js";
import { pidsWith, survivors, waitFor } from "../process/survivors.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, type AcaiProcess, makeAcaiDirs, startAcai } from "../support/run-acai.js";
import { modelArgs } from "./helpers.js";
import { installHooks } from "./hooks-support.js";

let tmp: string | undefined;
let server: FakeOpenAIServer | undefined;
const all: Array<{ dirs: AcaiDirs; acai: AcaiProcess }> = [];

afterEach(async () => {
  for (const { dirs, acai } of all.splice(0)) {
    acai.child.kill("SIGKILL");
    await acai.result;
    await dirs.cleanup();
  }
  await server?.close();
  server = undefined;
  if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
  tmp = undefined;
});

/** An `acai -p` with temp folder `tmp`, held in its session_start hook until `release()`. */
async function heldAcai(tmpDir: string, fake: FakeOpenAIServer) {
  const dirs = await makeAcaiDirs("acai-folders-");
  const release = path.join(dirs.root, "release");
  const script = `#!/bin/sh\nwhile [ ! -e '${release}' ]; do sleep 0.05; done\n`;
  await installHooks(dirs, "settings", [
    { name: "hold", events: ["session_start"], script, timeoutMs: 120_000 },
  ]);
  const acai = startAcai({
    dirs,
    args: ["-p", "go", "--trust-project-hooks", ...modelArgs("chat", fake)],
    baseUrl: fake.url,
    env: { TMPDIR: tmpDir },
    timeoutMs: 120_000,
  });
  all.push({ dirs, acai });
  const pid = acai.child.pid as number;
  return { acai, pid, release: () => writeFileSync(release, "") };
}

/** The spawner folders in `tmpDir` (in its folder of them) of the acai with `pid`. */
const foldersOf = (tmpDir: string, pid: number) => {
  const parent = spawnersFolder(tmpDir);
  if (!existsSync(parent)) return [];
  return readdirSync(parent).filter((name) => name.startsWith(`acai-spawner-${pid}-`));
};

/** Dates the sockets of `folders` two minutes back. */
function age(tmpDir: string, folders: string[]): void {
  const then = new Date(Date.now() - 120_000);
  for (const name of folders) utimesSync(path.join(spawnersFolder(tmpDir), name, "s"), then, then);
}

describe("spawner folders of an acai killed outright", () => {
  it("are removed by the next acai, whose sweep leaves a live acai's", {
    timeout: 120_000,
  }, async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "acai-folders-tmp-"));
    const t = tmp;
    server = await startFakeOpenAI(() => ({ text: "finished" }));
    const live = await heldAcai(t, server);
    const killed = await heldAcai(t, server);
    expect(await waitFor(() => foldersOf(t, live.pid).length > 0, 60_000)).toBe(true);
    expect(await waitFor(() => foldersOf(t, killed.pid).length > 0, 60_000)).toBe(true);
    const dead = foldersOf(t, killed.pid);
    // The helper has the socket's path in its arguments.
    expect(await waitFor(() => pidsWith(dead[0]!).length > 0, 30_000)).toBe(true);

    killed.acai.child.kill("SIGKILL");
    expect((await killed.acai.result).signal).toBe("SIGKILL");
    expect(foldersOf(t, killed.pid)).toEqual(dead);
    expect(await survivors(dead[0]!, 10_000)).toEqual([]);
    const liveFolders = foldersOf(t, live.pid);
    age(t, [...dead, ...liveFolders]);

    // The next acai's spawner starts (its folder appears), and a sweep removes the dead folder:
    // its own, or the live acai's when that one's helper started again meanwhile (a slow machine).
    const next = await heldAcai(t, server);
    const swept = () => foldersOf(t, next.pid).length > 0 && foldersOf(t, killed.pid).length === 0;
    expect(await waitFor(swept, 60_000)).toBe(true);
    expect(foldersOf(t, live.pid)).toEqual(liveFolders);

    live.release();
    next.release();
    for (const { acai } of [live, next]) {
      const result = await acai.result;
      expect(result.exitCode, result.stderr).toBe(0);
    }
    expect(readdirSync(spawnersFolder(t))).toEqual([]);
  });
});
