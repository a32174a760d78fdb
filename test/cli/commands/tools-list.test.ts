import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolListing } from "../../../source/cli/commands/tools-list.js";
import { type AcaiDirs, acai, tempProject, writeExecutable } from "./helpers.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

function tool(metadata: Record<string, unknown>, onDescribe = ""): string {
  return `#!/bin/sh
if [ "$TOOL_ACTION" = describe ]; then
  ${onDescribe}
  echo '${JSON.stringify(metadata)}'
  exit 0
fi
cat
`;
}

describe("acai tools list", () => {
  it("lists user tools described and an untrusted project's tools by file, running none of the project", async () => {
    dirs = await tempProject();
    const marker = path.join(dirs.root, "project-tool-ran");
    await writeExecutable(
      path.join(dirs.acaiHome, "tools", "weather"),
      tool({ name: "weather", description: "Current weather for a city", env: ["WEATHER_KEY"] }),
    );
    await writeExecutable(
      path.join(dirs.acaiHome, "tools", "shared"),
      tool({ name: "shared", description: "user version" }),
    );
    await writeExecutable(
      path.join(dirs.cwd, ".acai", "tools", "deploy"),
      tool({ name: "shared", description: "project version" }, `touch ${marker}`),
    );

    const text = await acai(dirs, ["tools", "list"]);
    expect(text.stderr).toBe("");
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain("Built-in: Bash, Read, Write, Edit, Glob, Grep");
    expect(text.stdout).toContain("  weather  (user)\n      Current weather for a city\n");
    expect(text.stdout).toContain("      env:   WEATHER_KEY");
    expect(text.stdout).toContain("  deploy  (project)  [untrusted]");
    expect(text.stdout).toContain("not described: nothing of an untrusted project runs");
    expect(existsSync(marker)).toBe(false);

    const json = JSON.parse((await acai(dirs, ["tools", "list", "--json"])).stdout) as ToolListing;
    expect(json.project_trust).toBe("untrusted");
    expect(json.tools.find((t) => t.name === "deploy")).toEqual({
      name: "deploy",
      scope: "project",
      file: path.join(dirs.cwd, ".acai", "tools", "deploy"),
      trust: "untrusted",
      status: "not-described",
      note: expect.stringContaining("not described"),
    });
    expect(json.tools.find((t) => t.name === "weather")).toMatchObject({
      scope: "user",
      trust: "user",
      status: "described",
      description: "Current weather for a city",
      env: ["WEATHER_KEY"],
    });
    expect(existsSync(marker)).toBe(false);

    // Once trusted, the project's tool is described, and it shadows the user's of the same name.
    expect((await acai(dirs, ["hooks", "trust"])).exitCode).toBe(0);
    const trusted = JSON.parse(
      (await acai(dirs, ["tools", "list", "--json"])).stdout,
    ) as ToolListing;
    expect(existsSync(marker), JSON.stringify(trusted)).toBe(true);
    expect(trusted.project_trust).toBe("trusted");
    expect(trusted.tools.filter((t) => t.name === "shared")).toEqual([
      expect.objectContaining({
        scope: "project",
        trust: "trusted",
        status: "described",
        description: "project version",
      }),
      expect.objectContaining({ scope: "user", status: "shadowed" }),
    ]);
  });

  it("says so when there are no dynamic tools; acai --help names the command", async () => {
    dirs = await tempProject();
    const empty = await acai(dirs, ["tools", "list"]);
    expect(empty.exitCode).toBe(0);
    expect(empty.stdout).toContain("No dynamic tools.");
    const help = await acai(dirs, ["--help"]);
    expect(help.stdout).toContain("list the tools the model gets (acai tools list)");
  });
});
