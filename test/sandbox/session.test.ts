import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { socketFolder } from "../../source/process/spawner-folder.js";
import { createNetworkBridges } from "../../source/sandbox/network.js";
import {
  createSessionSandbox,
  SandboxRequiredError,
  type SessionSandboxOptions,
} from "../../source/sandbox/session.js";
import { acaiSocketFolder, userFolder } from "../../source/shared/user-folder.js";

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

  it("hides acai's folders of sockets, the private ones where this user's are not theirs alone: those the spawners and bridges use", () => {
    const tmp = mkdtempSync(join(tmpdir(), "acai-session-test-"));
    try {
      mkdirSync(userFolder(tmp, "acai-spawners"), { mode: 0o700 });
      chmodSync(userFolder(tmp, "acai-spawners"), 0o755);
      symlinkSync(tmp, userFolder(tmp, "acai-networks"));
      const s = createSessionSandbox({ ...withBwrap, env: { ...withBwrap.env, TMPDIR: tmp } });
      const spawners = acaiSocketFolder(tmp, "acai-spawners");
      const networks = acaiSocketFolder(tmp, "acai-networks");
      expect(spawners).toMatch(new RegExp(`^${userFolder(tmp, "acai-spawners")}-[A-Za-z0-9]{6}$`));
      expect(networks).toMatch(new RegExp(`^${userFolder(tmp, "acai-networks")}-[A-Za-z0-9]{6}$`));
      expect(s.toolsPolicy?.denyRead).toEqual(expect.arrayContaining([spawners, networks]));
      expect(s.toolsPolicy?.denyRead).not.toContain(userFolder(tmp, "acai-spawners"));
      const spawner = socketFolder({ tmpDir: tmp, atExit: () => () => {} });
      expect(spawner.parent).toBe(spawners);
      spawner.remove();
      const bridges = createNetworkBridges({ node: "/node", script: "/bridge.js", tmpDir: tmp });
      const bridge = bridges.bridgeFor(s.toolsPolicy as NonNullable<typeof s.toolsPolicy>);
      expect(bridge.socketParent).toBe(networks);
      bridges.close();
      s.close();
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
