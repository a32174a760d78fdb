/**
 * Which spawner a sandbox launch asks for (process/spawner-kind.ts, decision
 * 0059): Python only where the policy's bwrap arguments show the system's
 * interpreter, the file it links to and its standard library as they are on
 * the host — a tmpfs, /dev/null or an unknown option over or inside any of
 * them means Node — and never with ACAI_SPAWN_HELPER=node; the kind is part
 * of the launch's key.
 */
import { existsSync, realpathSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { launchKey } from "../../source/process/launch-key.js";
import {
  pythonPaths,
  SYSTEM_PYTHON,
  spawnerKindChooser,
  spawnerKindFor,
  visibleInSandbox,
} from "../../source/process/spawner-kind.js";

const PY = ["/usr/bin/python3", "/usr/bin/python3.11", "/usr/lib/python3.11"];
/** What bwrap-args.ts always starts a policy with. */
const BASE = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid"];

describe("the Python spawner's files seen in a sandbox", () => {
  it("are seen under the host read-only, with writable folders and hidden ones elsewhere", () => {
    const args = [
      ...BASE,
      "--die-with-parent",
      "--cap-drop",
      "ALL",
      "--bind",
      "/home/u/p",
      "/home/u/p",
      "--tmpfs",
      "/home/u/.ssh",
      "--remount-ro",
      "/home/u/.ssh",
      "--ro-bind",
      "/dev/null",
      "/home/u/.netrc",
      "--unshare-net",
    ];
    expect(visibleInSandbox(args, PY)).toBe(true);
    expect(spawnerKindFor(args, PY)).toBe("python");
  });

  it("are not seen when a folder above them, the interpreter or a folder inside the library is hidden", () => {
    for (const hide of [
      ["--tmpfs", "/usr"],
      ["--tmpfs", "/usr/lib"],
      ["--ro-bind", "/dev/null", "/usr/bin/python3.11"],
      ["--tmpfs", "/usr/lib/python3.11/json"],
      ["--symlink", "/tmp/x", "/usr/bin/python3"],
      ["--bind", "/tmp/fake", "/usr/lib/python3.11"],
    ]) {
      expect(visibleInSandbox([...BASE, ...hide], PY), hide.join(" ")).toBe(false);
      expect(spawnerKindFor([...BASE, ...hide], PY)).toBe("node");
    }
  });

  it("are seen again when the same paths are bound back over what hid them", () => {
    expect(visibleInSandbox([...BASE, "--tmpfs", "/usr", "--ro-bind", "/usr", "/usr"], PY)).toBe(
      true,
    );
  });

  it("are not seen without a root bind, or with an option it does not know or cut short", () => {
    expect(visibleInSandbox(["--dev", "/dev"], PY)).toBe(false);
    expect(visibleInSandbox([...BASE, "--overlay-src", "/usr"], PY)).toBe(false);
    expect(visibleInSandbox([...BASE, "--bind", "/usr"], PY)).toBe(false);
  });

  it("means Node where the host has no Python", () => {
    expect(spawnerKindFor(BASE, undefined)).toBe("node");
    expect(pythonPaths("/nonexistent/python3")).toBeUndefined();
  });

  it.skipIf(!existsSync(SYSTEM_PYTHON))(
    "are the interpreter, its real file and its library on this host",
    () => {
      const paths = pythonPaths() ?? [];
      expect(paths[0]).toBe(SYSTEM_PYTHON);
      expect(paths).toContain(realpathSync(SYSTEM_PYTHON));
      expect(paths.every((path) => existsSync(path))).toBe(true);
      expect(spawnerKindChooser({})(BASE)).toBe("python");
    },
  );

  it("ACAI_SPAWN_HELPER=node keeps every spawner Node", () => {
    expect(spawnerKindChooser({ ACAI_SPAWN_HELPER: "node" })(BASE)).toBe("node");
  });

  it("the kind is part of the launch's key", () => {
    expect(launchKey(BASE, "python")).not.toBe(launchKey(BASE, "node"));
    expect(launchKey(BASE, "node")).toBe(launchKey([...BASE], "node"));
  });
});
