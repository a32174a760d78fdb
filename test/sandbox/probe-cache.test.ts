/**
 * The bwrap probe's cache (sandbox/probe-cache.ts): a success is remembered and
 * answers the same probe of the same bwrap on the same system; a failure never
 * is; a changed bwrap, system or argument list probes again; a file acai did not
 * write as it writes one (garbage, another key, too large, a planted link) never
 * answers, and a planted link is replaced rather than followed.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProbeResult } from "../../source/sandbox/detect.js";
import { cachedProbe } from "../../source/sandbox/probe-cache.js";

let dir: string;
let bwrap: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "acai-probe-cache-"));
  bwrap = path.join(dir, "bwrap");
  await writeFile(bwrap, "#!/bin/sh\nexit 0\n");
  await chmod(bwrap, 0o755);
  file = path.join(dir, "cache", "sandbox-probe.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A probe that answers `answers` in turn and counts its calls. */
function probeOf(...answers: ProbeResult[]) {
  const calls: string[] = [];
  const probe = (b: string, _args: readonly string[]): ProbeResult => {
    calls.push(b);
    return answers[Math.min(calls.length - 1, answers.length - 1)] ?? { status: 1, stderr: "" };
  };
  return { calls, probe };
}

const OK: ProbeResult = { status: 0, stderr: "" };
const DENIED: ProbeResult = { status: 1, stderr: "bwrap: No permissions to create new namespace" };
const ARGS = ["--unshare-pid", "--", "true"];

describe("the bwrap probe's cache", () => {
  it("answers a success again without probing, on the same bwrap and system", () => {
    const real = probeOf(OK);
    const probe = cachedProbe({ file, probe: real.probe, system: () => "kernel-1" });
    expect(probe(bwrap, ARGS)).toEqual(OK);
    expect(probe(bwrap, ARGS)).toEqual(OK);
    const again = cachedProbe({ file, probe: real.probe, system: () => "kernel-1" });
    expect(again(bwrap, ARGS).status).toBe(0);
    expect(real.calls).toHaveLength(1);
  });

  it("never keeps a failure: the next session probes again and reports what bwrap said", () => {
    const real = probeOf(DENIED, DENIED);
    const probe = cachedProbe({ file, probe: real.probe, system: () => "kernel-1" });
    expect(probe(bwrap, ARGS)).toEqual(DENIED);
    expect(probe(bwrap, ARGS)).toEqual(DENIED);
    expect(real.calls).toHaveLength(2);
  });

  it("does not let an earlier success answer once the system no longer allows it", () => {
    const real = probeOf(OK, DENIED);
    expect(cachedProbe({ file, probe: real.probe, system: () => "userns=1" })(bwrap, ARGS)).toEqual(
      OK,
    );
    const changed = cachedProbe({ file, probe: real.probe, system: () => "userns=0" });
    expect(changed(bwrap, ARGS)).toEqual(DENIED);
    expect(changed(bwrap, ARGS)).toEqual(DENIED);
    expect(real.calls).toHaveLength(3);
  });

  it("probes again when bwrap is replaced or the probe's arguments change", async () => {
    const real = probeOf(OK);
    const probe = cachedProbe({ file, probe: real.probe, system: () => "k" });
    probe(bwrap, ARGS);
    await writeFile(bwrap, "#!/bin/sh\n# another bwrap, another size\nexit 0\n");
    probe(bwrap, ARGS);
    probe(bwrap, [...ARGS, "--unshare-net"]);
    expect(real.calls).toHaveLength(3);
    probe(bwrap, [...ARGS, "--unshare-net"]);
    expect(real.calls).toHaveLength(3);
  });

  it("caches nothing for a bwrap it cannot examine", () => {
    const real = probeOf(OK);
    const probe = cachedProbe({ file, probe: real.probe, system: () => "k" });
    const missing = path.join(dir, "no-bwrap");
    probe(missing, ARGS);
    probe(missing, ARGS);
    expect(real.calls).toHaveLength(2);
  });

  it("ignores a cache file it did not write as it writes one", async () => {
    const real = probeOf(DENIED);
    const probe = cachedProbe({ file, probe: real.probe, system: () => "k" });
    await rm(path.dirname(file), { recursive: true, force: true });
    await mkdir(path.dirname(file));
    for (const text of [
      "not json",
      JSON.stringify({ version: 1, key: "someone else's key" }),
      JSON.stringify({ version: 2, key: "x", available: true }),
      JSON.stringify({ version: 1, key: "x".repeat(20_000) }),
    ]) {
      await writeFile(file, text);
      expect(probe(bwrap, ARGS)).toEqual(DENIED);
    }
    expect(real.calls).toHaveLength(4);
  });

  it("replaces a planted link instead of writing through it", async () => {
    await mkdir(path.dirname(file));
    const target = path.join(dir, "elsewhere.txt");
    await writeFile(target, "untouched");
    await symlink(target, file);
    const real = probeOf(OK);
    cachedProbe({ file, probe: real.probe, system: () => "k" })(bwrap, ARGS);
    expect(await readFile(target, "utf8")).toBe("untouched");
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ version: 1 });
  });
});
