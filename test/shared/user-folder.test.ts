/**
 * acai's folders of sockets (source/shared/user-folder.ts, decision 0068): this user's shared
 * `<tmp>/<prefix>-<uid>` where that is theirs alone; else — someone else's folder, a link, a
 * file, a folder open to others at that name — a private `<tmp>/<prefix>-<uid>-XXXXXX` of this
 * process, 0700, the same at every ask. The choice holds for the process: a folder chosen and
 * then no longer this user's alone is refused, not swapped for another.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  acaiSocketFolder,
  neededSocketFolder,
  SOCKET_FOLDERS,
  userFolder,
} from "../../source/shared/user-folder.js";

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "acai-user-folder-test-"));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

/** What a private folder's path looks like: the shared name and six more characters. */
const privateOf = (shared: string) => new RegExp(`^${shared}-[A-Za-z0-9]{6}$`);

/** Whether `dir` is a real folder of this user, mode 0700. */
function ours(dir: string): boolean {
  const stat = lstatSync(dir);
  return stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o777) === 0o700;
}

describe("acai's folder of sockets in a temp folder", () => {
  it("is this user's shared folder, made 0700 if missing, and made again when it went", () => {
    for (const prefix of SOCKET_FOLDERS) {
      const shared = userFolder(tmp, prefix);
      expect(basename(shared)).toBe(`${prefix}-${process.getuid?.()}`);
      expect(acaiSocketFolder(tmp, prefix)).toBe(shared);
      expect(ours(shared)).toBe(true);
      rmdirSync(shared);
      expect(acaiSocketFolder(tmp, prefix)).toBe(shared);
      expect(ours(shared)).toBe(true);
    }
  });

  const someoneElses: Array<[string, (shared: string) => void]> = [
    ["a folder open to others", (shared) => mkdirSync(shared, { mode: 0o755 })],
    ["a file", (shared) => writeFileSync(shared, "not a folder\n")],
    [
      "a link to a folder of this user's",
      (shared) => {
        mkdirSync(join(tmp, "elsewhere"), { mode: 0o700 });
        symlinkSync(join(tmp, "elsewhere"), shared);
      },
    ],
  ];
  for (const [what, make] of someoneElses) {
    it(`is a private folder of this process, 0700 and the same at every ask, where the shared name is ${what}`, () => {
      const shared = userFolder(tmp, "acai-spawners");
      make(shared);
      const before = lstatSync(shared);
      const folder = acaiSocketFolder(tmp, "acai-spawners");
      expect(folder).toMatch(privateOf(shared));
      expect(dirname(folder as string)).toBe(tmp);
      expect(ours(folder as string)).toBe(true);
      expect(acaiSocketFolder(tmp, "acai-spawners")).toBe(folder);
      expect(neededSocketFolder(tmp, "acai-spawners")).toBe(folder);
      // The other prefix chooses on its own (its shared folder is fine here).
      expect(acaiSocketFolder(tmp, "acai-networks")).toBe(userFolder(tmp, "acai-networks"));
      // Nothing was made in or changed at the shared name, nor where a link leads.
      const after = lstatSync(shared);
      expect([after.ino, after.mode]).toEqual([before.ino, before.mode]);
      if (existsSync(join(tmp, "elsewhere")))
        expect(readdirSync(join(tmp, "elsewhere"))).toEqual([]);
      expect(readdirSync(tmp).filter((name) => name.startsWith("acai-spawners-"))).toHaveLength(2);
    });
  }

  it("a private folder that went is made again under its name, 0700", () => {
    mkdirSync(userFolder(tmp, "acai-networks"), { mode: 0o755 });
    const folder = acaiSocketFolder(tmp, "acai-networks") as string;
    rmdirSync(folder);
    expect(acaiSocketFolder(tmp, "acai-networks")).toBe(folder);
    expect(ours(folder)).toBe(true);
  });

  it("refuses, naming it, a folder chosen earlier that is no longer this user's alone", () => {
    const shared = acaiSocketFolder(tmp, "acai-spawners") as string;
    chmodSync(shared, 0o755);
    expect(() => acaiSocketFolder(tmp, "acai-spawners")).toThrow(
      `acai's folder of sockets ${shared} is no longer this user's alone`,
    );
    chmodSync(shared, 0o700);
    expect(acaiSocketFolder(tmp, "acai-spawners")).toBe(shared);
  });

  it("is none in a temp folder that is not there; where a socket must go, that is an error naming it", () => {
    const missing = join(tmp, "missing");
    expect(acaiSocketFolder(missing, "acai-spawners")).toBeUndefined();
    expect(() => neededSocketFolder(missing, "acai-spawners")).toThrow(
      `acai cannot make a folder for its sockets (acai-spawners) in the temp folder ${missing}`,
    );
    // The choice holds: made later, that temp folder still gets none in this process.
    mkdirSync(missing);
    expect(acaiSocketFolder(missing, "acai-spawners")).toBeUndefined();
    expect(readdirSync(missing)).toEqual([]);
  });
});
