import { describe, expect, it } from "vitest";
import { projectChanges } from "../../source/project/changes.js";

const entries = [
  { key: "a", digest: "1" },
  { key: "b", digest: "2" },
  { key: "c", digest: "3" },
];

describe("projectChanges", () => {
  it("a first review, a record without entries, and a precise diff", () => {
    expect(projectChanges(entries, undefined)).toEqual({ kind: "first-review" });
    expect(projectChanges(entries, {})).toEqual({ kind: "unknown" });
    expect(projectChanges(entries, { entries: { a: "1", b: "changed", z: "9" } })).toEqual({
      kind: "changed",
      added: ["c"],
      edited: ["b"],
      removed: ["z"],
    });
  });
});
