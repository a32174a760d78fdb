import { describe, expect, it } from "vitest";
import { detectSandbox, PROBE_ARGS } from "../../source/sandbox/detect.js";

const executables = new Set(["/usr/bin/bwrap", "/opt/bwrap"]);
const isExecutable = (file: string) => executables.has(file);
const ok = () => ({ status: 0, stderr: "" });

describe("detectSandbox", () => {
  it("finds bwrap on the session's PATH and probes it with the launch's namespaces", () => {
    const probed: string[][] = [];
    const found = detectSandbox({
      platform: "linux",
      env: { PATH: "/nothing:/usr/bin" },
      isExecutable,
      probe: (bwrap, args) => {
        probed.push([bwrap, ...args]);
        return ok();
      },
    });
    expect(found).toEqual({ kind: "available", bwrap: "/usr/bin/bwrap" });
    expect(probed).toEqual([["/usr/bin/bwrap", ...PROBE_ARGS]]);
    expect(PROBE_ARGS).toContain("--unshare-pid");
  });

  it("no bwrap on PATH: unavailable, with how to get it; relative PATH entries are not searched", () => {
    const found = detectSandbox({
      platform: "linux",
      env: { PATH: "usr/bin:/bin" },
      isExecutable,
      probe: ok,
    });
    expect(found).toMatchObject({
      kind: "unavailable",
      missing: "bubblewrap (bwrap) is not on PATH",
    });
    expect(found.kind === "unavailable" && found.fix).toContain("apt-get install bubblewrap");
  });

  it("sandbox.bwrapPath is used instead of PATH, and named when it is not there", () => {
    expect(
      detectSandbox({
        platform: "linux",
        env: {},
        bwrapPath: "/opt/bwrap",
        isExecutable,
        probe: ok,
      }),
    ).toEqual({ kind: "available", bwrap: "/opt/bwrap" });
    const missing = detectSandbox({
      platform: "linux",
      env: { PATH: "/usr/bin" },
      bwrapPath: "/nope/bwrap",
      isExecutable,
      probe: ok,
    });
    expect(missing.kind === "unavailable" && missing.missing).toContain("sandbox.bwrapPath");
  });

  it("user namespaces disabled: says so, with the sysctl", () => {
    const found = detectSandbox({
      platform: "linux",
      env: { PATH: "/usr/bin" },
      isExecutable,
      probe: () => ({ status: 1, stderr: "bwrap: setting up uid map: Permission denied\n" }),
    });
    expect(found.kind).toBe("unavailable");
    if (found.kind !== "unavailable") return;
    expect(found.missing).toContain("setting up uid map: Permission denied");
    expect(found.fix).toContain("kernel.unprivileged_userns_clone");
  });

  it("macOS and other systems: plainly none", () => {
    const mac = detectSandbox({ platform: "darwin", env: {}, probe: ok });
    expect(mac.kind === "unavailable" && mac.missing).toContain("macOS");
    const win = detectSandbox({ platform: "win32", env: {}, probe: ok });
    expect(win.kind === "unavailable" && win.missing).toContain("no OS sandbox on win32");
  });
});
