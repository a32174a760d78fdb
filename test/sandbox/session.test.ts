import { describe, expect, it } from "vitest";
import {
  createSessionSandbox,
  SandboxRequiredError,
  type SessionSandboxOptions,
} from "../../source/sandbox/session.js";

const base: SessionSandboxOptions = {
  user: undefined,
  project: undefined,
  userFile: "/home/u/.acai/settings.json",
  projectFile: "/p/.acai/settings.json",
  projectDir: "/p",
  homeDir: "/home/u",
  acaiHome: "/home/u/.acai",
  trustedFiles: [],
  env: { PATH: "/nowhere-a:/nowhere-b", TMPDIR: "/tmp/t" },
  platform: "linux",
  probe: () => ({ status: 0, stderr: "" }),
};
const withBwrap = { ...base, user: { bwrapPath: "/bin/sh" } };

describe("createSessionSandbox", () => {
  it("on: reports the policy, its notice-free warnings, and the namespace containment", () => {
    const s = createSessionSandbox(withBwrap);
    expect(s.report).toMatchObject({ state: "on", bwrap: "/bin/sh", containment: "namespace" });
    expect(s.toolsPolicy?.write).toEqual(["/p", "/tmp/t"]);
    expect(s.warnings).toEqual([]);
    s.close();
  });

  it("no bwrap: one notice, no policy, marker containment", () => {
    const s = createSessionSandbox(base);
    expect(s.report).toMatchObject({ state: "unavailable", containment: "marker" });
    expect(s.toolsPolicy).toBeUndefined();
    expect(s.hookPolicy(undefined, "user")).toBeUndefined();
    expect(s.warnings).toHaveLength(1);
    expect(s.warnings[0]).toContain("bubblewrap (bwrap) is not on PATH");
  });

  it("sandbox.required without bwrap: refused, naming the file that requires it", () => {
    expect(() => createSessionSandbox({ ...base, project: { required: true } })).toThrow(
      SandboxRequiredError,
    );
    try {
      createSessionSandbox({ ...base, user: { required: true } });
    } catch (error) {
      expect((error as SandboxRequiredError).file).toBe("/home/u/.acai/settings.json");
      expect((error as Error).message).toContain("sandbox.required");
    }
  });

  it("turned off by the user: off, no notice", () => {
    const s = createSessionSandbox({ ...base, user: { enabled: false } });
    expect(s.report.state).toBe("off");
    expect(s.warnings).toEqual([]);
  });

  it("hooks may write their CLAUDE_ENV_FILE folder; allowNetworkInHooks gives hooks the network, not the tools", () => {
    const s = createSessionSandbox({
      ...withBwrap,
      hookWrite: ["/home/u/.acai/session-env"],
      allowNetworkInHooks: true,
    });
    const hook = s.hookPolicy(undefined, "project", true);
    expect(hook?.write).toContain("/home/u/.acai/session-env");
    expect(s.hookPolicy(undefined, "project")?.write).not.toContain("/home/u/.acai/session-env");
    expect(hook?.network.kind).toBe("all");
    expect(s.toolsPolicy?.network.kind).toBe("none");
    expect(s.toolsPolicy?.write).not.toContain("/home/u/.acai/session-env");
    s.close();
  });
});
