/**
 * The persistent hook host (hooks.md §6.4) against real processes: requests
 * overlap and are matched by id; everything a hostile process does — hang,
 * crash, garbage, unknown or repeated ids, endless lines, ignoring the end —
 * is the failure of a request or of that process, said in the decision, and
 * the process is restarted (with backoff) or stopped with its whole tree.
 */
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import type { HookDefinition } from "../../../../source/hooks/contract/definition.js";
import {
  createPersistentHost,
  type PersistentHost,
} from "../../../../source/hooks/run/persistent/host.js";
import { restartDelayMs } from "../../../../source/hooks/run/persistent/slot.js";
import { createContainment } from "../../../../source/process/containment.js";
import { createProcessStarter } from "../../../../source/process/long-lived.js";
import { Markers, pidsNamed, survivors, waitFor } from "../../../process/survivors.js";
import { makeHook } from "../../support.js";

const markers = new Markers();
const hosts: PersistentHost[] = [];
afterEach(() => {
  for (const host of hosts.splice(0)) host.kill();
  markers.killAll();
});

/**
 * A node process serving lines: `answer(req)` (a JS expression over `req`, the
 * parsed request) gives the line(s) to print; `null` prints nothing.
 */
function nodeHook(answer: string, overrides: Partial<HookDefinition> = {}): HookDefinition {
  const script = [
    "const rl = require('node:readline').createInterface({ input: process.stdin });",
    "let n = 0;",
    "rl.on('line', async (line) => {",
    "  const req = JSON.parse(line); n++;",
    `  const out = await (async () => (${answer}))();`,
    "  if (out !== null) process.stdout.write(typeof out === 'string' ? out : JSON.stringify(out) + '\\n');",
    "});",
  ].join("\n");
  return makeHook({
    timeoutMs: 5000,
    ...overrides,
    launch: {
      command: process.execPath,
      args: ["-e", script],
      viaShell: false,
      mode: "persistent",
    },
  });
}

/** One containment for the file: run ids are unique, so one test's sweep never reaches another's processes. */
const starter = createProcessStarter(createContainment());

function host(): PersistentHost {
  const h = createPersistentHost({
    starter,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", MY_API_KEY: "s3cret", HOOK_ACTION: "x" },
    projectDir: process.cwd(),
    sessionId: () => "s-1",
    maxLineBytes: 64 * 1024,
  });
  hosts.push(h);
  return h;
}

const ask = (
  h: PersistentHost,
  hook: HookDefinition,
  payload: Record<string, unknown> = {},
  signal?: AbortSignal,
) =>
  h.request({
    hook,
    event: "before_tool",
    payload: { event: "before_tool", ...payload },
    ...(signal ? { signal } : {}),
  });

describe("persistent hook host", () => {
  it("serves many requests from one process, overlapping, matched by id", async () => {
    // Answers the slow request last: ids, not order, match answers.
    const hook = nodeHook(
      "req.slow ? new Promise((r) => setTimeout(() => r({ id: req.id, reason: 'slow ' + process.pid, action: 'block' }), 200)) : { id: req.id, context: 'pid ' + process.pid + ' n ' + n }",
    );
    const h = host();
    const [slow, fast] = await Promise.all([ask(h, hook, { slow: true }), ask(h, hook)]);
    expect(slow.decision).toMatchObject({ action: "block" });
    expect(fast.decision).toMatchObject({ action: "continue" });
    const pid = /pid (\d+)/.exec(String(fast.decision.context))?.[1];
    const later = await ask(h, hook);
    expect(later.decision.context).toBe(`pid ${pid} n 3`);
    expect(later.stdin).toMatch(/^\{"id":3,"event":"before_tool"\}\n$/);
  });

  it("gets a spawned hook's environment: secrets scrubbed unless listed in env, HOOK_ACTION=serve", async () => {
    const answer =
      "{ id: req.id, context: [process.env.MY_API_KEY ?? 'none', process.env.HOOK_ACTION, process.env.ACAI_SESSION_ID].join(' ') }";
    const h = host();
    expect((await ask(h, nodeHook(answer))).decision.context).toBe("none serve s-1");
    const allowed = nodeHook(answer, { env: ["MY_API_KEY"] });
    expect((await ask(h, allowed)).decision.context).toBe("s3cret serve s-1");
  });

  it("a request past its timeout fails and the process is restarted", async () => {
    const hook = nodeHook("req.hang ? null : { id: req.id, context: String(process.pid) }", {
      timeoutMs: 1500,
    });
    const h = host();
    const before = await ask(h, hook);
    const hung = await ask(h, hook, { hang: true });
    expect(hung.timedOut).toBe(true);
    expect(hung.decision).toEqual({ action: "failed", error: "timed out after 1500 ms" });
    const after = await ask(h, hook);
    expect(after.decision.action).toBe("continue");
    expect(after.decision.context).not.toBe(before.decision.context);
  });

  it("a request never fails before its own timeout, though the timer it runs on was made for an earlier one", async () => {
    const hook = nodeHook("req.hang ? null : { id: req.id }", { timeoutMs: 600 });
    const h = host();
    expect((await ask(h, hook)).decision).toEqual({ action: "continue" });
    await new Promise((r) => setTimeout(r, 400));
    const hung = await ask(h, hook, { hang: true });
    expect(hung.decision).toEqual({ action: "failed", error: "timed out after 600 ms" });
    expect(hung.durationMs).toBeGreaterThanOrEqual(600);
    expect((await ask(h, hook)).decision).toEqual({ action: "continue" });
  });

  it("an abort fails the requests that carry its signal, not the others; one listener per signal and hook", async () => {
    const hook = nodeHook(
      "req.late ? new Promise((r) => setTimeout(() => r({ id: req.id, context: 'late' }), 200)) : { id: req.id }",
    );
    const h = host();
    const [first, second] = [new AbortController(), new AbortController()];
    const cut = ask(h, hook, { late: true }, first.signal);
    const kept = ask(h, hook, { late: true }, second.signal);
    setTimeout(() => first.abort(), 20);
    expect(await cut).toMatchObject({ aborted: true, decision: { action: "failed" } });
    expect(await kept).toMatchObject({ aborted: false, decision: { context: "late" } });
    for (let i = 0; i < 5; i++) await ask(h, hook, {}, second.signal);
    expect(getEventListeners(second.signal, "abort")).toHaveLength(1);
    expect((await ask(h, hook, {}, first.signal)).decision).toEqual({
      action: "failed",
      error: "aborted",
    });
  });

  it("lets go of a signal no request waits with once another comes (a turn's, when its turn is over)", async () => {
    const hook = nodeHook(
      "req.late ? new Promise((r) => setTimeout(() => r({ id: req.id }), 150)) : { id: req.id }",
    );
    const h = host();
    const turns = [new AbortController(), new AbortController(), new AbortController()];
    const listeners = () => turns.map((t) => getEventListeners(t.signal, "abort").length);
    await ask(h, hook, {}, turns[0]?.signal);
    const waiting = ask(h, hook, { late: true }, turns[0]?.signal);
    await ask(h, hook, {}, turns[1]?.signal);
    // The first turn's signal still has a request waiting with it: still listened to.
    expect(listeners()).toEqual([1, 1, 0]);
    await waiting;
    await ask(h, hook, {}, turns[2]?.signal);
    expect(listeners()).toEqual([0, 0, 1]);
  });

  it("a crash fails what was in flight; the first restart is at once, the next ones back off", async () => {
    const hook = nodeHook(
      "req.crash ? (console.error('Error: boom'), process.exit(7)) : { id: req.id }",
    );
    const h = host();
    const crashed = await ask(h, hook, { crash: true });
    expect(crashed.decision).toEqual({ action: "failed", error: "exited with 7: Error: boom" });
    expect(crashed.exitCode).toBe(7);
    expect((await ask(h, hook)).decision).toEqual({ action: "continue" });
    // An answer resets the count; two crashes in a row wait before the next start.
    await ask(h, hook, { crash: true });
    await ask(h, hook, { crash: true }).catch(() => undefined);
    const waiting = await ask(h, hook);
    expect(waiting.decision).toMatchObject({ action: "failed" });
    expect(String(waiting.decision.action === "failed" && waiting.decision.error)).toMatch(
      /ended 2 times in a row; it is started again in \d+ ms/,
    );
    expect([1, 2, 3, 4, 10].map(restartDelayMs)).toEqual([0, 250, 500, 1000, 30_000]);
  });

  it.each([
    [
      "a line that is not JSON",
      "'hello world\\n'",
      /printed a line that is not JSON: "hello world"/,
    ],
    ["JSON that is not an object", "'[1,2]\\n'", /not a JSON object/],
    ["an answer without an id", "{ action: 'block' }", /without a request "id"/],
    ["an unknown id", "{ id: 999 }", /answered id 999, which is not waiting/],
    ["JSON nested too deep", "'['.repeat(1000) + '\\n'", /nested more than 64 levels/],
  ])("%s fails the request and restarts the process", async (_what, answer, error) => {
    const hook = nodeHook(`req.bad ? ${answer} : { id: req.id, context: String(process.pid) }`);
    const h = host();
    const before = await ask(h, hook);
    const bad = await ask(h, hook, { bad: true });
    expect(bad.decision.action).toBe("failed");
    expect(bad.decision.action === "failed" && bad.decision.error).toMatch(error);
    expect(bad.decision.action === "failed" && bad.decision.error).toMatch(
      /its process is restarted/,
    );
    const after = await ask(h, hook);
    expect(after.decision.action).toBe("continue");
    expect(after.decision.context).not.toBe(before.decision.context);
  });

  it("a second answer to one id ends the process", async () => {
    const hook = nodeHook(
      "req.twice ? JSON.stringify({ id: req.id }) + '\\n' + JSON.stringify({ id: req.id }) + '\\n' : { id: req.id }",
    );
    const h = host();
    const [twice, waiting] = await Promise.all([
      ask(h, hook, { twice: true }),
      ask(h, hook, { hang: true }).then((r) => r),
    ]);
    expect(twice.decision).toEqual({ action: "continue" });
    // The other request was answered normally or failed with the process: never lost.
    expect(["continue", "failed"]).toContain(waiting.decision.action);
  });

  it("a line past the cap (with or without a newline) is an output-limit failure", async () => {
    const hook = nodeHook("'x'.repeat(200 * 1024)");
    const bad = await ask(host(), hook);
    expect(bad.outputLimit).toBe(true);
    expect(bad.decision.action === "failed" && bad.decision.error).toMatch(
      /printed a line longer than 64 KiB/,
    );
  });

  it("an error answer fails that request only; an aborted request's late answer is dropped", async () => {
    const hook = nodeHook(
      "req.err ? { id: req.id, error: 'no database' } : req.late ? new Promise((r) => setTimeout(() => r({ id: req.id }), 150)) : { id: req.id, context: String(process.pid) }",
    );
    const h = host();
    const first = await ask(h, hook);
    expect((await ask(h, hook, { err: true })).decision).toEqual({
      action: "failed",
      error: "answered an error: no database",
    });
    const controller = new AbortController();
    const late = ask(h, hook, { late: true }, controller.signal);
    setTimeout(() => controller.abort(), 20);
    expect((await late).aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect((await ask(h, hook)).decision.context).toBe(first.decision.context);
  });

  it("stop: a process that ignores the end of its stdin is killed with its setsid child", async () => {
    const marker = markers.next("acai-persistent-unit");
    const hook = nodeHook(
      `(n === 1 && require('node:child_process').spawn('setsid', ['bash', '-c', 'exec -a ${marker} sleep 300'], { stdio: 'ignore', detached: true }).unref(), process.stdin.removeAllListeners('end'), rl.removeAllListeners('close'), process.on('SIGTERM', () => {}), { id: req.id })`,
    );
    const h = host();
    await ask(h, hook);
    // The sleep itself, exec'd under the marker: `setsid` and the shell show the marker in their
    // arguments before that, and a sweep while a process is in the middle of its exec does not see it.
    expect(await waitFor(() => pidsNamed(marker).length > 0)).toBe(true);
    await h.stop(100);
    expect(await survivors(marker)).toEqual([]);
    expect((await ask(h, hook)).decision).toEqual({
      action: "failed",
      error: "was not sent: the session is ending",
    });
  });
});

describe("requests asked together (a chain asking ahead)", () => {
  it("are each answered as asked, and a held request still times out", async () => {
    const h = host();
    const hooks = ["a", "b", "c"].map((name) =>
      nodeHook(`req.hang ? null : { id: req.id, context: ${JSON.stringify(name)} + ' ' + req.n }`, {
        name,
        id: `user:executable:/x#${name}`,
        timeoutMs: 1500,
      }),
    );
    // Started first: only a running process's request is held.
    for (const hook of hooks) await ask(h, hook, { n: 0 });
    const answers = await h.together(() =>
      Promise.all(hooks.map((hook, i) => ask(h, hook, { n: i + 1 }))),
    );
    expect(answers.map((record) => record.decision.context)).toEqual(["a 1", "b 2", "c 3"]);
    expect(answers.map((record) => record.stdin)).toEqual([
      '{"id":2,"event":"before_tool","n":1}\n',
      '{"id":2,"event":"before_tool","n":2}\n',
      '{"id":2,"event":"before_tool","n":3}\n',
    ]);
    // Its timeout starts when it is written, after the asking.
    const hung = await h.together(() => ask(h, hooks[0] as HookDefinition, { hang: true }));
    expect(hung.decision).toMatchObject({ action: "failed", error: "timed out after 1500 ms" });
  });
});
