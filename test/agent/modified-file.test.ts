import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  changedLines,
  modifiedFileNotice,
  snapshotFile,
} from "../../source/agent/modified-file.js";

describe("the modified-file notice", () => {
  it("numbers the changed lines of the new text, with context", () => {
    const before = "a\nb\nc\nd\ne\nf\ng\nh\n";
    const after = "a\nb\nc\nd\nE\nf\ng\nh\n";
    expect(changedLines(before, after)).toBe(
      [
        "     2\tb",
        "     3\tc",
        "     4\td",
        "     5\tE",
        "     6\tf",
        "     7\tg",
        "     8\th",
      ].join("\n"),
    );
  });

  it("says nothing when the hash is unchanged, and tells when the file changed or went", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "acai-modified-"));
    try {
      const file = path.join(dir, "x.ts");
      await writeFile(file, "const x=1\n");
      const before = await snapshotFile(file);
      if (!before) throw new Error("no snapshot");
      expect(await modifiedFileNotice(file, "Write", before)).toBeUndefined();
      await writeFile(file, "const x = 1;\n");
      const notice = await modifiedFileNotice(file, "Edit", before);
      expect(notice).toContain(`${file} was changed after your Edit by an after_tool hook`);
      expect(notice).toContain("     1\tconst x = 1;");
      await rm(file);
      expect(await modifiedFileNotice(file, "Edit", before)).toContain("no longer exists");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
