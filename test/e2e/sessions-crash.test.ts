/**
 * A session killed during a tool call can be continued (issue 18, "A killed
 * session cannot be continued"): `acai -p` is SIGKILLed (by pid) while its
 * Bash call sleeps; `acai -p -c` then succeeds, the model's next request
 * carries an "interrupted" result for that call, and the user sees one line
 * saying so.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { Markers, markedSleep, pidsWith, waitFor } from "../process/survivors.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai, startAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

const markers = new Markers();
let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-crash-resume-");
});
afterEach(async () => {
  markers.killAll();
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

it("acai -p -c goes on after a SIGKILL during a tool call, with an interrupted result", async () => {
  const marker = markers.next("acai-crash-resume");
  server = await startFakeOpenAI([
    { toolCalls: [{ name: "Bash", input: { command: markedSleep(marker) }, id: "call_sleep" }] },
    { text: "Picked up again." },
  ]);
  const first = startAcai({
    args: ["-p", "sleep a while", "--yes", ...modelArgs("chat", server)],
    dirs,
    baseUrl: server.url,
    timeoutMs: 60_000,
  });
  expect(await waitFor(() => pidsWith(marker).length > 0, 30_000)).toBe(true);
  first.child.kill("SIGKILL");
  const killed = await first.result;
  expect(killed.signal).toBe("SIGKILL");
  markers.killAll();

  const second = await runAcai({
    args: ["-p", "go on", "-c", ...modelArgs("chat", server)],
    dirs,
    baseUrl: server.url,
    timeoutMs: 60_000,
  });
  expect(second.stderr).not.toMatch(STACK_TRACE);
  expect(second.stderr).not.toContain("Tool result is missing");
  expect(second.exitCode, second.stderr).toBe(0);
  expect(second.stdout).toContain("Picked up again.");
  const notes = second.stderr.split("\n").filter((line) => line.includes("interrupted"));
  expect(notes).toHaveLength(1);
  expect(notes[0]).toContain("Bash");
  const resumed = server.requests.at(-1)?.body;
  const results = toolResultsSent(resumed);
  expect(results).toHaveLength(1);
  expect(results[0]).toContain("Interrupted");
  expect(JSON.stringify(resumed)).toContain("call_sleep");
}, 120_000);
