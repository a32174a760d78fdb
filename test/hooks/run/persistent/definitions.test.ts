/** `mode: persistent` from describe metadata and HOOK.md frontmatter becomes the launch's run mode. */
import { describe, expect, it } from "vitest";
import { runModeOf } from "../../../../source/hooks/contract/definition.js";
import { executableDefinition } from "../../../../source/hooks/discover/sources/executables.js";
import { hookMdDefinition } from "../../../../source/hooks/discover/sources/hook-md.js";

const exe = (metadata: unknown) =>
  executableDefinition(
    { path: "/h/guard", scope: "user", size: 1, mtimeMs: 1, hash: "x" } as never,
    metadata,
    "/p",
  );

const md = (data: unknown) =>
  hookMdDefinition(
    {
      scope: "user",
      dir: "/h/guard",
      file: "/h/guard/HOOK.md",
      text: "",
      frontmatter: { ok: true, data },
      script: { path: "/h/guard/scripts/run.sh", executable: true, firstLine: "#!/bin/bash" },
    },
    "/p",
  );

describe("run mode of a definition", () => {
  it("an executable: spawn by default, persistent when its metadata says so, else broken", () => {
    const spawned = exe({ events: ["before_tool"] });
    const persistent = exe({ events: ["before_tool"], mode: "persistent" });
    expect("launch" in spawned && runModeOf(spawned)).toBe("spawn");
    expect("launch" in persistent && runModeOf(persistent)).toBe("persistent");
    const bad = exe({ events: ["before_tool"], mode: "daemon" });
    expect("reason" in bad && bad.reason).toMatch(/invalid metadata: mode/);
  });

  it("a HOOK.md folder: mode persistent in its frontmatter", () => {
    const persistent = md({ trigger: "before_tool", mode: "persistent" });
    expect("launch" in persistent && runModeOf(persistent)).toBe("persistent");
    const spawned = md({ trigger: "before_tool" });
    expect("launch" in spawned && runModeOf(spawned)).toBe("spawn");
  });
});
