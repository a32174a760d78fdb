import { describe, expect, it } from "vitest";
import { quietRunResult } from "../../source/process/result.js";
import type { RunOptions } from "../../source/process/types.js";
import {
  createLaunchTable,
  launchingRunner,
  sandboxEnvironment,
  sandboxedRunner,
} from "../../source/sandbox/launch.js";
import type { SandboxPolicy } from "../../source/sandbox/policy.js";

const policy: SandboxPolicy = {
  name: "work",
  write: ["/p"],
  readOnly: [],
  denyRead: [],
  network: { kind: "none" },
};

function table(canStart = true) {
  return createLaunchTable({
    context: { kind: (p) => (p === "/p" ? "dir" : "missing"), realpath: (p) => p },
    canStart: () => canStart,
    spawnerKind: () => "python",
  });
}

describe("launches", () => {
  it("one launch per policy, keyed by its arguments, named by the policy", () => {
    const t = table();
    const a = t.launchFor(policy);
    expect(t.launchFor({ ...policy })).toBe(a);
    expect(a.name).toBe("work");
    expect(a.bwrapArgs).toContain("--unshare-net");
    expect(t.launchFor({ ...policy, network: { kind: "all", deny: [] } }).key).not.toBe(a.key);
  });

  it("the same policy object asked again gets its launch; an equal or a different one is judged by its content", () => {
    const t = table();
    const a = t.launchFor(policy);
    expect(t.launchFor(policy)).toBe(a);
    const other: SandboxPolicy = { ...policy, network: { kind: "all", deny: [] } };
    const b = t.launchFor(other);
    expect(b.key).not.toBe(a.key);
    expect(b.bwrapArgs).not.toContain("--unshare-net");
    expect(t.launchFor(other)).toBe(b);
    expect(t.launchFor({ ...policy })).toBe(a);
    expect(t.launchFor({ ...other })).toBe(b);
  });

  it("ACAI_SANDBOX is set when sandboxed and removed when not, whatever the parent had", () => {
    const t = table();
    const launch = t.launchFor(policy);
    expect(sandboxEnvironment({ A: "1" }, launch, undefined)).toEqual({
      A: "1",
      ACAI_SANDBOX: "1",
      ACAI_SANDBOX_POLICY: "work",
    });
    expect(
      sandboxEnvironment(
        { ACAI_SANDBOX: "1", ACAI_SANDBOX_POLICY: "forged" },
        undefined,
        undefined,
      ),
    ).toEqual({});
  });

  it("the runner layers: the call site marks the run, the launch puts the command in bwrap", async () => {
    const t = table();
    const seen: RunOptions[] = [];
    const base = async (options: RunOptions) => {
      seen.push(options);
      return quietRunResult({ exitCode: 0 });
    };
    const runner = sandboxedRunner(launchingRunner(base, t, "/usr/bin/bwrap"), t, policy);
    await runner({ command: "/bin/bash", args: ["-c", "ls"], cwd: "/p", env: {} });
    const run = seen[0]!;
    expect(run.command).toBe("/usr/bin/bwrap");
    expect(run.sandbox).toBeUndefined();
    expect(run.args?.slice(-6)).toEqual(["--chdir", "/p", "--", "/bin/bash", "-c", "ls"]);
    expect(run.env.ACAI_SANDBOX).toBe("1");
  });

  it("a command that cannot start is not started at all: the runner's words, nothing outside the sandbox", async () => {
    const t = table(false);
    const seen: RunOptions[] = [];
    const base = async (options: RunOptions) => {
      seen.push(options);
      return quietRunResult({ exitCode: 0 });
    };
    const runner = sandboxedRunner(launchingRunner(base, t, "/bwrap"), t, policy);
    const result = await runner({ command: "/no/such", cwd: "/p", env: {} });
    expect(seen).toEqual([]);
    expect(result.spawnError).toContain('cannot run "/no/such"');
  });

  it("with a process layer that starts sandboxed runs itself, only the bridge is put in front", async () => {
    const t = createLaunchTable({
      context: { kind: () => "missing", realpath: (p) => p },
      canStart: () => true,
      spawnerKind: () => "node",
      bridgeFor: () => ({
        socketDir: "/s/acai-net-x",
        socketParent: "/s",
        prefix: ["/node", "/bridge.js", "{}", "--"],
        env: { HTTP_PROXY: "x" },
      }),
    });
    const hosts: SandboxPolicy = {
      ...policy,
      network: { kind: "hosts", allow: ["a.example"], deny: [] },
    };
    const seen: RunOptions[] = [];
    const base = async (options: RunOptions) => {
      seen.push(options);
      return quietRunResult({ exitCode: 0 });
    };
    await sandboxedRunner(
      launchingRunner(base, t, "/bwrap", false),
      t,
      hosts,
    )({
      command: "curl",
      args: ["a.example"],
      cwd: "/p",
      env: {},
    });
    expect(seen[0]?.command).toBe("/node");
    expect(seen[0]?.args).toEqual(["/bridge.js", "{}", "--", "curl", "a.example"]);
    expect(seen[0]?.sandbox?.name).toBe("work");
    expect(seen[0]?.env.HTTP_PROXY).toBe("x");
  });
});
