/**
 * Containment on a normal end and when acai is SIGKILLed: the children of
 * hooks, describe steps, the Bash tool and dynamic tools that left their
 * process group (setsid, a daemon's double fork, setpgid) do not outlive
 * acai — by the marker without the OS sandbox, and by PID namespace with it
 * on and required (issue 19), the same checks for both. Survivors are counted
 * by a marker in their argv (/proc/<pid>/cmdline).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { alive, childrenOf, Markers, pidsWith, survivors, waitFor } from "../process/survivors.js";
import { bwrapWorks } from "../support/bwrap.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai, startAcai } from "../support/run-acai.js";
import {
  ESCAPE_KINDS,
  escapees,
  installUserHook,
  installUserTool,
  writeUserSettings,
} from "./containment-support.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

/** The two containments; each runs the same checks. */
const CONTAINMENTS = [
  { name: "the marker (no OS sandbox)", settings: {}, available: true },
  {
    name: "PID namespace (the OS sandbox on and required)",
    settings: { sandbox: { enabled: true, required: true } },
    available: bwrapWorks,
  },
];

const markers = new Markers();
let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-containment-");
  // Marker containment and process ids: without the OS sandbox (writeUserSettings).
  await writeUserSettings(dirs, {});
});
afterEach(async () => {
  markers.killAll();
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

function started(label: string): string[] {
  return ESCAPE_KINDS.filter((kind) =>
    existsSync(path.join(dirs.root, `started-${label}-${kind}`)),
  );
}

for (const containment of CONTAINMENTS) {
  describe.runIf(containment.available)(`containment by ${containment.name}`, () => {
    beforeEach(async () => {
      await writeUserSettings(dirs, containment.settings);
    });

    it("a normal end of acai -p leaves none of the escapees of hooks, describe steps, Bash and dynamic tools", async () => {
      const marker = markers.next();
      const esc = (label: string) => escapees(marker, label, dirs.root);
      await installUserHook(dirs, {
        name: "escaper",
        events: ["before_tool", "session_end"],
        describeBody: esc("hook-describe"),
        body: esc("hook"),
      });
      await installUserHook(dirs, {
        name: "async-escaper",
        events: ["after_tool"],
        async: true,
        body: esc("async-hook"),
      });
      await installUserTool(
        dirs,
        "escape_tool",
        `${esc("tool")}\necho tool-done`,
        esc("tool-describe"),
      );
      // The Bash tool's escapees end with its command: none left when the model hears back.
      let bashLeft = -1;
      const turns = [
        { toolCalls: [{ name: "Bash", input: { command: `${esc("bash")}\necho bash-done` } }] },
        { toolCalls: [{ name: "escape_tool", input: {} }] },
        { text: "done" },
      ];
      server = await startFakeOpenAI((_request, index) => {
        if (index === 1) bashLeft = pidsWith(`${marker}-bash`).length;
        return turns[index] ?? { text: "done" };
      });
      const result = await runAcai({
        dirs,
        args: ["-p", "go", "--yes", ...modelArgs("chat", server)],
        baseUrl: server.url,
      });
      expect(result.stderr).not.toMatch(STACK_TRACE);
      expect(result.exitCode).toBe(0);
      expect(toolResultsSent(server.requests[2]?.body).join("\n")).toMatch(
        /bash-done[\s\S]*tool-done/,
      );
      for (const label of [
        "hook-describe",
        "hook",
        "tool-describe",
        "bash",
        "tool",
        "async-hook",
      ]) {
        expect(started(label), label).toEqual([...ESCAPE_KINDS]);
      }
      expect(bashLeft).toBe(0);
      expect(await survivors(marker)).toEqual([]);
    });

    it("SIGKILL of acai: nothing it started survives (the watchdog; in the sandbox, the namespace)", async () => {
      const marker = markers.next();
      server = await startFakeOpenAI([
        {
          toolCalls: [
            {
              name: "Bash",
              input: {
                command: `${escapees(marker, "bash", dirs.root)}\nexec -a ${marker}-shell sleep 300`,
              },
            },
          ],
        },
        { text: "unreachable" },
      ]);
      const run = startAcai({
        dirs,
        args: ["-p", "go", "--yes", ...modelArgs("chat", server)],
        baseUrl: server.url,
      });
      expect(await waitFor(() => pidsWith(marker).length === 4, 10_000)).toBe(true);
      // The watchdog's argv names the marker entry it sweeps for (`ACAI_RUN_<id>=`); a Bash
      // command on the host started it, one in the OS sandbox did not (decision 0058).
      const watchdogsOf = () =>
        childrenOf(run.child.pid ?? 0).filter((child) => child.cmdline.includes("ACAI_RUN_"));
      const onHost = containment.settings.sandbox === undefined;
      // Waited for: its command line shows the entry once its exec is done.
      if (onHost) expect(await waitFor(() => watchdogsOf().length === 1, 5000)).toBe(true);
      const watchdogs = watchdogsOf();
      expect(watchdogs).toHaveLength(onHost ? 1 : 0);
      if (onHost && existsSync("/usr/bin/python3")) {
        expect(watchdogs[0]?.cmdline.startsWith("/usr/bin/python3 -I -S -c")).toBe(true);
      }
      run.child.kill("SIGKILL");
      await run.result;
      expect(await survivors(marker, 3000)).toEqual([]);
      // Its sweep done, the watchdog is gone too.
      expect(await waitFor(() => watchdogs.every((child) => !alive(child.pid)), 5000)).toBe(true);
    });
  });
}

describe("containment", () => {
  it("a hook that times out has its setsid child killed at once, while acai goes on", async () => {
    const marker = markers.next();
    await installUserHook(dirs, {
      name: "slow-guard",
      events: ["before_tool"],
      matcher: { tool: "Bash" },
      // Long enough for the three escapees to start on a loaded machine (the body waits for
      // them, then sleeps): 300 ms was too short for perl's setpgid in one CI run at load ~14.
      timeoutMs: 5_000,
      body: `${escapees(marker, "guard", dirs.root)}\nsleep 300`,
    });
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "echo first" } }] },
      { text: "done" },
    ]);
    // While the second model request is made, the guard's escapees must be gone already.
    let leftDuringRun = -1;
    const check = setInterval(() => {
      if (server && server.requests.length >= 2 && leftDuringRun < 0) {
        leftDuringRun = pidsWith(marker).length;
      }
    }, 5);
    const result = await runAcai({
      dirs,
      args: ["-p", "go", "--yes", ...modelArgs("chat", server)],
      baseUrl: server.url,
    });
    clearInterval(check);
    expect(result.exitCode).toBe(0);
    expect(started("guard")).toEqual([...ESCAPE_KINDS]);
    expect(leftDuringRun).toBe(0);
    expect(await survivors(marker)).toEqual([]);
  }, 60_000);
});
