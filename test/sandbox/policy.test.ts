import { describe, expect, it } from "vitest";
import {
  CREDENTIAL_STORES,
  policyWithNeeds,
  type ResolvePolicyOptions,
  resolveSandboxSettings,
} from "../../source/sandbox/policy.js";

const base: ResolvePolicyOptions = {
  user: undefined,
  project: undefined,
  userFile: "/home/u/.acai/settings.json",
  projectFile: "/p/.acai/settings.json",
  projectDir: "/p",
  homeDir: "/home/u",
  acaiHome: "/home/u/.acai",
  tempDirs: ["/tmp"],
  trustedFiles: ["/p/scripts/hook.sh"],
};

describe("resolveSandboxSettings", () => {
  it("defaults to a careful policy: on, writes in the project and temp, credentials and trust records hidden, no network", () => {
    const s = resolveSandboxSettings(base);
    expect(s.enabled).toBe(true);
    expect(s.required).toBe(false);
    expect(s.autoAllowBashIfSandboxed).toBe(false);
    expect(s.policy.name).toBe("default");
    expect(s.policy.write).toEqual(["/p", "/tmp"]);
    expect(s.policy.readOnly).toEqual(
      expect.arrayContaining([
        "/home/u/.acai",
        "/p/.acai",
        "/p/.mcp.json",
        "/p/.git/config",
        "/p/.git/hooks",
        "/p/scripts/hook.sh",
        "/home/u/.config/agents/hooks",
      ]),
    );
    for (const store of [
      ".ssh",
      ".aws",
      ".gnupg",
      ".config/gcloud",
      ".netrc",
      ".docker/config.json",
    ]) {
      expect(s.policy.denyRead).toContain(`/home/u/${store}`);
    }
    expect(CREDENTIAL_STORES).toContain(".mozilla");
    expect(s.policy.denyRead).toContain("/home/u/.acai/trust.json");
    expect(s.policy.network).toEqual({ kind: "none" });
    expect(s.warnings).toEqual([]);
  });

  it("the user's settings widen and name the policy", () => {
    const s = resolveSandboxSettings({
      ...base,
      user: {
        name: "work",
        autoAllowBashIfSandboxed: true,
        filesystem: { allowWrite: ["~/.cache/pip"], denyRead: ["~/secrets"] },
        network: {
          allowedDomains: ["api.github.com", "*.npmjs.org"],
          deniedDomains: ["evil.example"],
        },
      },
    });
    expect(s.policy.name).toBe("work");
    expect(s.autoAllowBashIfSandboxed).toBe(true);
    expect(s.policy.write).toContain("/home/u/.cache/pip");
    expect(s.policy.denyRead).toContain("/home/u/secrets");
    expect(s.policy.network).toEqual({
      kind: "hosts",
      allow: ["api.github.com", "*.npmjs.org"],
      deny: ["evil.example"],
    });
  });

  it("a project only narrows: what would widen is ignored with a warning that names the file and setting", () => {
    const s = resolveSandboxSettings({
      ...base,
      user: { network: { allowedDomains: ["api.github.com", "registry.npmjs.org"] } },
      project: {
        enabled: false,
        autoAllowBashIfSandboxed: true,
        bwrapPath: "/p/fake-bwrap",
        filesystem: { allowWrite: ["/"], denyRead: ["./secrets"], denyWrite: ["./vendor"] },
        network: { allowedDomains: ["registry.npmjs.org", "attacker.example"] },
      },
    });
    expect(s.enabled).toBe(true);
    expect(s.autoAllowBashIfSandboxed).toBe(false);
    expect(s.bwrapPath).toBeUndefined();
    expect(s.policy.write).toEqual(["/p", "/tmp"]);
    expect(s.policy.denyRead).toContain("/p/secrets");
    expect(s.policy.readOnly).toContain("/p/vendor");
    expect(s.policy.network).toEqual({ kind: "hosts", allow: ["registry.npmjs.org"], deny: [] });
    const text = s.warnings.join("\n");
    for (const what of [
      "sandbox.enabled: false",
      "sandbox.filesystem.allowWrite",
      "sandbox.autoAllowBashIfSandboxed",
      "sandbox.bwrapPath",
      "sandbox.network.allowedDomains attacker.example",
    ]) {
      expect(text).toContain(what);
    }
    expect(text).toContain("/p/.acai/settings.json");
  });

  it("a project can turn the sandbox on or make it required, never off", () => {
    expect(resolveSandboxSettings({ ...base, user: { enabled: false } }).enabled).toBe(false);
    expect(
      resolveSandboxSettings({ ...base, user: { enabled: false }, project: { enabled: true } })
        .enabled,
    ).toBe(true);
    const required = resolveSandboxSettings({ ...base, project: { failIfUnavailable: true } });
    expect(required.required).toBe(true);
  });

  it('"*" in allowedDomains means every host; a project cannot add it', () => {
    expect(
      resolveSandboxSettings({ ...base, user: { network: { allowedDomains: ["*"] } } }).policy
        .network,
    ).toEqual({ kind: "all", deny: [] });
    expect(
      resolveSandboxSettings({ ...base, project: { network: { allowedDomains: ["*"] } } }).policy
        .network,
    ).toEqual({ kind: "none" });
  });
});

describe("policyWithNeeds", () => {
  const policy = resolveSandboxSettings(base).policy;

  it("a user hook gets the hosts and writes it declares", () => {
    const p = policyWithNeeds(
      policy,
      { network: ["127.0.0.1:8080"], write: ["~/.cache/x"] },
      "user",
      base,
      [],
    );
    expect(p.network).toEqual({ kind: "hosts", allow: ["127.0.0.1:8080"], deny: [] });
    expect(p.write).toContain("/home/u/.cache/x");
  });

  it("a project hook gets only hosts the user allows, and writes only inside the project", () => {
    const p = policyWithNeeds(
      policy,
      { network: ["api.github.com", "attacker.example"], write: ["./.cache", "/etc"] },
      "project",
      base,
      ["api.github.com"],
    );
    expect(p.network).toEqual({ kind: "hosts", allow: ["api.github.com"], deny: [] });
    expect(p.write).toContain("/p/.cache");
    expect(p.write).not.toContain("/etc");
  });

  it("a project hook cannot make the trusted set or git's hooks writable again", () => {
    expect(policy.readOnly).toContain("/p/.git/hooks");
    const p = policyWithNeeds(
      policy,
      { write: ["./.git/hooks", "./.git/hooks/pre-commit", "./scripts/hook.sh", "./build"] },
      "project",
      base,
      [],
    );
    expect(p.write).toContain("/p/build");
    expect(p.write).not.toContain("/p/.git/hooks");
    expect(p.write).not.toContain("/p/.git/hooks/pre-commit");
    expect(p.write).not.toContain("/p/scripts/hook.sh");
  });

  it("no needs: the same policy object", () => {
    expect(policyWithNeeds(policy, {}, "user", base, [])).toBe(policy);
  });
});
