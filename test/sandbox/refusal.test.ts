import { describe, expect, it } from "vitest";
import { quietRunResult } from "../../source/process/result.js";
import type { SandboxPolicy } from "../../source/sandbox/policy.js";
import { refusalNote, withRefusalNotes } from "../../source/sandbox/refusal.js";

const policy: SandboxPolicy = {
  name: "default",
  write: ["/p", "/tmp"],
  readOnly: ["/home/u/.acai", "/p/.acai", "/p/.git/config"],
  denyRead: ["/home/u/.ssh"],
  network: { kind: "none" },
};
const context = {
  policy,
  cwd: "/p",
  homeDir: "/home/u",
  refusedHosts: [],
  settingsFile: "/home/u/.acai/settings.json",
};

describe("refusalNote", () => {
  it("a write outside the writable folders names the path and the setting", () => {
    const note = refusalNote("bash: line 1: /etc/x: Read-only file system", context);
    expect(note).toContain("writing /etc/x: the sandbox may write only in /p, /tmp");
    expect(note).toContain("sandbox.filesystem.allowWrite in /home/u/.acai/settings.json");
    expect(note).toContain("not run again outside the sandbox");
  });

  it("a write to a read-only path inside the project, also relative", () => {
    const note = refusalNote(
      "sed: couldn't open temporary file .acai/hooks/sedX: Read-only file system",
      context,
    );
    expect(note).toContain("writing /p/.acai/hooks/sedX: /p/.acai is read-only in the sandbox");
  });

  it("a read of a hidden credential store, also written with ~", () => {
    const note = refusalNote("cat: ~/.ssh/id_rsa: No such file or directory", context);
    expect(note).toContain("reading /home/u/.ssh/id_rsa: /home/u/.ssh is unreadable");
  });

  it("the network: none, and a host the proxy refused", () => {
    expect(refusalNote("curl: (6) Could not resolve host: example.com", context)).toContain(
      "the sandbox has no network",
    );
    const refused = refusalNote("", { ...context, refusedHosts: ["evil.example:443"] });
    expect(refused).toContain("connecting to evil.example:443");
    expect(refused).toContain("sandbox.network.allowedDomains");
  });

  it("ordinary failures get no note", () => {
    expect(refusalNote("cat: /p/nope.txt: No such file or directory", context)).toBeUndefined();
    expect(refusalNote("error: tests failed", context)).toBeUndefined();
  });

  it("the runner wrapper appends the note to stderr", async () => {
    const runner = withRefusalNotes(
      async () =>
        quietRunResult({
          exitCode: 1,
          stderr: "touch: cannot touch '/etc/x': Read-only file system",
        }),
      { policy, homeDir: "/home/u", settingsFile: "/s.json" },
      () => [],
    );
    const result = await runner({
      command: "/bin/bash",
      args: ["-c", "touch /etc/x"],
      cwd: "/p",
      env: {},
    });
    expect(result.stderr).toMatch(/Read-only file system\n\[acai sandbox\]/);
    expect(result.exitCode).toBe(1);
  });
});
