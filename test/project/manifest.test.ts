import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildProjectManifest, type ManifestInput } from "../../source/project/manifest.js";
import { tempFolder } from "./support.js";

const tmp = tempFolder();
const hooksDir = () => path.join(tmp.dir(), ".acai", "hooks");
const build = (extra: Partial<ManifestInput> = {}) =>
  buildProjectManifest({
    projectDir: tmp.dir(),
    trees: [hooksDir()],
    settingsFiles: [],
    commandPaths: [],
    ...extra,
  });
const keys = (extra: Partial<ManifestInput> = {}) => build(extra).entries.map((e) => e.key);

describe("buildProjectManifest", () => {
  it("is empty (no fingerprint) when the project controls nothing", () => {
    expect(build()).toEqual({ entries: [], fingerprint: null });
  });

  it("hashes a linked folder outside the project under the link's key, and its edits show", async () => {
    const vendor = await tmp.write("vendor/hook/scripts/run.sh", "#!/bin/sh\n", 0o755);
    await mkdir(hooksDir(), { recursive: true });
    await symlink(path.dirname(path.dirname(vendor)), path.join(hooksDir(), "lint"));
    const before = build();
    // The link, and the content where it points (not /bin/sh: system interpreters are the user's).
    expect(before.entries).toEqual([
      { key: ".acai/hooks/lint", digest: `link ${path.join(tmp.dir(), "vendor", "hook")}` },
      {
        key: ".acai/hooks/lint/scripts/run.sh",
        digest: expect.stringMatching(/^file x [0-9a-f]{64}$/),
      },
    ]);
    await writeFile(vendor, "#!/bin/sh\nrm -rf ~\n");
    expect(build().fingerprint).not.toBe(before.fingerprint);
  });

  it("records a link cycle instead of following it forever", async () => {
    await mkdir(path.join(hooksDir(), "a"), { recursive: true });
    await symlink("..", path.join(hooksDir(), "a", "up"));
    const manifest = build();
    expect(manifest.incomplete).toBeUndefined();
    expect(manifest.entries).toContainEqual({ key: ".acai/hooks/a/up", digest: "link-cycle" });
  });

  it("the executable bit is part of a file's identity", async () => {
    const file = await tmp.write(".acai/hooks/x", "echo\n");
    const plain = build().fingerprint;
    await chmod(file, 0o755);
    expect(build().fingerprint).not.toBe(plain);
  });

  it("adds interpreters named by a path in #! (directly or through env), not PATH lookups", async () => {
    await tmp.write(".acai/hooks/a", "#!./tools/interp\n", 0o755);
    await tmp.write(".acai/hooks/b", "#!/usr/bin/env ./tools/other -x\n", 0o755);
    await tmp.write(".acai/hooks/c", "#!/usr/bin/env python3\n", 0o755);
    await tmp.write("tools/interp", "#!../outside\n", 0o755);
    await tmp.write("../outside", "not the project's\n", 0o755);
    await tmp.write("tools/other", "other\n", 0o755);
    expect(keys()).toEqual([
      ".acai/hooks/a",
      ".acai/hooks/b",
      ".acai/hooks/c",
      "interpreter:tools/interp",
      "interpreter:tools/other",
    ]);
  });

  it("hashes scripts named by settings commands and settings files whole", async () => {
    const script = await tmp.write("scripts/check.sh", "exit 0\n");
    const settings = path.join(tmp.dir(), ".acai", "settings.json");
    const entries = build({
      settingsFiles: [{ path: settings, digest: "abc" }],
      commandPaths: [script, path.join(tmp.dir(), "missing.sh")],
    }).entries;
    expect(entries).toContainEqual({ key: ".acai/settings.json", digest: "settings abc" });
    expect(entries.map((e) => e.key)).toContain("script:scripts/check.sh");
    expect(entries.map((e) => e.key)).not.toContain("script:missing.sh");
  });

  it("is incomplete past the file limit, naming the limit and the folder (no placeholder)", async () => {
    for (let i = 0; i < 5; i++) await tmp.write(`.acai/hooks/f${i}`, `${i}`);
    const manifest = build({
      limits: { maxFiles: 3, maxFileBytes: 1024, maxTotalBytes: 1024 * 1024 },
    });
    expect(manifest.incomplete).toBe(
      `more than 3 files under ${hooksDir()} (the trust limit): remove files from that folder, or run with --no-project`,
    );
  });

  it("is incomplete for a file too large or unreadable, never hashing a stand-in", async () => {
    await tmp.write(".acai/hooks/big", "x".repeat(2048));
    const big = build({ limits: { maxFiles: 100, maxFileBytes: 1024, maxTotalBytes: 1 << 20 } });
    expect(big.incomplete).toContain(
      `${path.join(hooksDir(), "big")} cannot be hashed: it is larger than the 1 KiB limit`,
    );
    if (process.getuid?.() !== 0) {
      const secret = await tmp.write(".acai/hooks/execute-only", "echo\n", 0o111);
      expect(build().incomplete).toContain(`${secret} cannot be hashed: permission denied`);
    }
  });

  it("does not read a FIFO or a device in a hook folder (it would block or never end)", async () => {
    await mkdir(hooksDir(), { recursive: true });
    await symlink("/dev/zero", path.join(hooksDir(), "zero"));
    const manifest = build();
    expect(manifest.incomplete).toBeUndefined();
    expect(manifest.entries).toContainEqual({ key: ".acai/hooks/zero@", digest: "special" });
  });
});
