import { closeSync, statSync, writeFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ensurePrivateDir,
  ensurePrivateDirSync,
  openPrivateAppendSync,
  tightenFile,
} from "../../source/config/private-files.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "acai-private-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const modeOf = (p: string) => statSync(p).mode & 0o777;

describe("private files", () => {
  it("creates every missing folder 0700", async () => {
    ensurePrivateDirSync(join(root, "home", "a", "b"));
    await ensurePrivateDir(join(root, "home2", "c"));
    for (const dir of ["home", "home/a", "home/a/b", "home2", "home2/c"]) {
      expect(modeOf(join(root, dir)), dir).toBe(0o700);
    }
  });

  it("leaves an existing folder's mode alone", async () => {
    await mkdir(join(root, "shared"), { mode: 0o755 });
    await chmod(join(root, "shared"), 0o755);
    ensurePrivateDirSync(join(root, "shared", "logs"));
    expect(modeOf(join(root, "shared"))).toBe(0o755);
    expect(modeOf(join(root, "shared", "logs"))).toBe(0o700);
  });

  it("creates appended files 0600 and tightens an existing open one", async () => {
    const fresh = join(root, "home", "logs", "x.jsonl");
    closeSync(openPrivateAppendSync(fresh));
    expect(modeOf(fresh)).toBe(0o600);
    expect(modeOf(join(root, "home", "logs"))).toBe(0o700);

    const old = join(root, "old.jsonl");
    writeFileSync(old, "line\n", { mode: 0o644 });
    await chmod(old, 0o644);
    closeSync(openPrivateAppendSync(old));
    expect(modeOf(old)).toBe(0o600);

    const other = join(root, "other");
    await writeFile(other, "", { mode: 0o664 });
    await chmod(other, 0o664);
    await tightenFile(other);
    expect((await stat(other)).mode & 0o777).toBe(0o600);
    await expect(tightenFile(join(root, "missing"))).resolves.toBeUndefined();
  });
});
