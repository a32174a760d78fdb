/**
 * `acai hooks init NAME --type http|prompt|agent|mcp_tool`: an entry of that
 * type in the project's .acai/settings.json, which loads as a working hook of
 * that type once trusted (and, for http, once the user allows its URL); a
 * second init of the same name is refused without --force.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, acai, tempProject } from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

interface Listed {
  name: string;
  status: string;
  mode?: string;
  events?: string[];
  reason?: string;
}

describe("acai hooks init --type", () => {
  it("writes each type as a settings entry that loads as that type", async () => {
    dirs = await tempProject();
    const d = dirs;
    const types = ["http", "prompt", "agent", "mcp_tool"];
    for (const type of types) {
      const init = await acai(d, ["hooks", "init", `my-${type}`, "--type", type]);
      expect(init.exitCode, init.stderr).toBe(0);
      expect(init.stdout).toContain(`Added the ${type} hook "my-${type}" on before_tool`);
    }
    const settings = JSON.parse(
      await readFile(path.join(d.cwd, ".acai", "settings.json"), "utf8"),
    ) as { hooks: { PreToolUse: { matcher: string; hooks: { type: string }[] }[] } };
    expect(settings.hooks.PreToolUse.map((g) => g.hooks[0]?.type)).toEqual(types);
    // The user allows the http hook's URL; the project is trusted.
    await writeFile(
      path.join(d.acaiHome, "settings.json"),
      JSON.stringify({ allowedHttpHookUrls: ["http://127.0.0.1:*/*"] }),
    );
    expect((await acai(d, ["hooks", "trust"])).exitCode).toBe(0);
    const list = await acai(d, ["hooks", "list", "--json"]);
    const hooks = (JSON.parse(list.stdout) as { hooks: Listed[] }).hooks;
    for (const type of types) {
      expect(hooks).toContainEqual(
        expect.objectContaining({ name: `my-${type}`, status: "ok", mode: type }),
      );
    }
  });

  it("refuses a second hook of the same name unless --force", async () => {
    dirs = await tempProject();
    const d = dirs;
    expect((await acai(d, ["hooks", "init", "judge", "--type", "prompt"])).exitCode).toBe(0);
    const again = await acai(d, ["hooks", "init", "judge", "--type", "prompt"]);
    expect(again.exitCode).not.toBe(0);
    expect(again.stderr).toContain('has a hook named "judge" on PreToolUse already');
    const forced = await acai(d, ["hooks", "init", "judge", "--type", "prompt", "--force"]);
    expect(forced.exitCode, forced.stderr).toBe(0);
    const text = await readFile(path.join(d.cwd, ".acai", "settings.json"), "utf8");
    expect(text.match(/"name": "judge"/g)).toHaveLength(1);
  });
});
