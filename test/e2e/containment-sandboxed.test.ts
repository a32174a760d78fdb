/**
 * containment-exit.test.ts's checks with the OS sandbox on (issue 19: containment
 * by namespace, not by marker): the escapees of hooks, describe steps, the Bash
 * tool and dynamic tools (setsid, a daemon's double fork, setpgid) do not
 * outlive acai, nor a SIGKILLed acai. Survivors are counted by a marker in
 * their argv (/proc/<pid>/cmdline).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Markers, pidsWith, survivors, waitFor } from "../process/survivors.js";
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

const bwrapWorks =
  process.platform === "linux" &&
  spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-pid", "--proc", "/proc", "true"]).status ===
    0;

const markers = new Markers();
let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-containment-");
  await writeUserSettings(dirs, { sandbox: { enabled: true, required: true } });
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

describe.runIf(bwrapWorks)("containment with the OS sandbox on (PID namespaces)", () => {
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
    for (const label of ["hook-describe", "hook", "tool-describe", "bash", "tool", "async-hook"]) {
      expect(started(label), label).toEqual([...ESCAPE_KINDS]);
    }
    expect(bashLeft).toBe(0);
    expect(await survivors(marker)).toEqual([]);
  });

  it("SIGKILL of acai: the watchdog kills what acai started", async () => {
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
    run.child.kill("SIGKILL");
    await run.result;
    expect(await survivors(marker, 3000)).toEqual([]);
  });
});
