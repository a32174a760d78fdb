/**
 * A session whose children all run in the OS sandbox starts no watchdog
 * (decision 0058): each runs in bwrap's PID namespace, which dies with acai.
 * Through `acai -p` with the sandbox on and required, a session_start hook
 * that starts an escapee (setsid, empty environment) and waits: while it runs,
 * no watchdog is a child of acai; after acai is SIGKILLed, neither the hook,
 * its escapee nor the sandbox's bwrap processes are left.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { alive, childrenOf, Markers, pidsWith, survivors, waitFor } from "../process/survivors.js";
import { bwrapWorks } from "../support/bwrap.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, startAcai } from "../support/run-acai.js";
import { installUserHook, writeUserSettings } from "./containment-support.js";
import { modelArgs } from "./helpers.js";

const markers = new Markers();
let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-sandboxed-only-");
  await writeUserSettings(dirs, { sandbox: { enabled: true, required: true } });
});
afterEach(async () => {
  markers.killAll();
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

describe.runIf(bwrapWorks)("a session whose children all run in the sandbox", () => {
  it("starts no watchdog, and leaves nothing when acai is SIGKILLed", async () => {
    const marker = markers.next();
    await installUserHook(dirs, {
      name: "starter",
      events: ["session_start"],
      timeoutMs: 60_000,
      body: [
        `setsid env -i /bin/bash -c 'exec -a ${marker}-escapee sleep 300' </dev/null >/dev/null 2>&1 &`,
        `exec -a ${marker}-hook sleep 300`,
      ].join("\n"),
    });
    server = await startFakeOpenAI([{ text: "unreachable" }]);
    const run = startAcai({
      dirs,
      args: ["-p", "go", ...modelArgs("chat", server)],
      baseUrl: server.url,
    });
    const acai = run.child.pid ?? 0;
    expect(await waitFor(() => pidsWith(marker).length === 2, 15_000)).toBe(true);
    const children = childrenOf(acai);
    // The watchdog's argv names the marker entry it sweeps for (`ACAI_RUN_<id>=`).
    expect(children.filter((child) => child.cmdline.includes("ACAI_RUN_"))).toEqual([]);
    const sandboxes = children.filter(
      (child) => child.cmdline.startsWith("bwrap ") || child.cmdline.includes("/bwrap "),
    );
    expect(sandboxes.length).toBeGreaterThan(0);
    run.child.kill("SIGKILL");
    await run.result;
    expect(await survivors(marker, 5000)).toEqual([]);
    expect(await waitFor(() => sandboxes.every((child) => !alive(child.pid)), 5000)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});
