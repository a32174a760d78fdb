/**
 * The runner's wait for a child's streams (process/run-waits.ts): a stream
 * that closed before the wait began — a spawner's socket whose empty output
 * ended while it waited paused in the pool — counts as closed at once; one
 * still open is waited for, its data collected.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { Collector } from "../../source/process/collector.js";
import type { ChildHandle } from "../../source/process/handle.js";
import { streamsWait } from "../../source/process/run-waits.js";

const child = (stdout: PassThrough, stderr: PassThrough) =>
  ({ stdout, stderr }) as unknown as ChildHandle;

describe("streamsWait", () => {
  it("a stream closed before the wait began does not hold the run", async () => {
    const [stdout, stderr] = [new PassThrough(), new PassThrough()];
    stderr.end();
    stderr.resume();
    await new Promise((resolve) => stderr.once("close", resolve));
    const out = new Collector(1024, () => {});
    const waited = streamsWait(child(stdout, stderr), out, new Collector(1024, () => {}));
    stdout.end("said");
    await waited;
    expect(out.received).toBe(4);
  });

  it("waits for a stream still open", async () => {
    const [stdout, stderr] = [new PassThrough(), new PassThrough()];
    let done = false;
    const waited = streamsWait(
      child(stdout, stderr),
      new Collector(1024, () => {}),
      new Collector(1024, () => {}),
    ).then(() => {
      done = true;
    });
    stdout.end();
    await new Promise((resolve) => stdout.once("close", resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    stderr.end();
    await waited;
    expect(done).toBe(true);
  });
});
