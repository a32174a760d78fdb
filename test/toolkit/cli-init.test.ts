import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, acai, tempProject } from "./helpers.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

const LANGS = [
  { lang: "bash", ext: ".sh" },
  { lang: "python", ext: ".py" },
  { lang: "node", ext: ".mjs" },
  { lang: "ts", ext: ".mts" },
] as const;

describe("acai hooks init", () => {
  it("writes an executable skeleton in every language that passes `acai hooks test`", async () => {
    dirs = await tempProject();
    const d = dirs;
    await Promise.all(
      LANGS.map(async ({ lang, ext }) => {
        const event =
          lang === "python" ? "UserPromptSubmit" : lang === "node" ? "before_stop" : "before_tool";
        const init = await acai(d, [
          "hooks",
          "init",
          `my-${lang}`,
          "--lang",
          lang,
          "--event",
          event,
        ]);
        expect(init.stderr).toBe("");
        expect(init.exitCode).toBe(0);
        const file = path.join(d.cwd, ".acai", "hooks", `my-${lang}${ext}`);
        expect(init.stdout).toContain(`Wrote .acai/hooks/my-${lang}${ext}`);
        expect((await stat(file)).mode & 0o111).toBe(0o111);
        expect(await readFile(file, "utf8")).toContain("HOOK_ACTION");
      }),
    );
    for (const { lang, ext } of LANGS) {
      const event =
        lang === "python" ? "user_prompt" : lang === "node" ? "before_stop" : "before_tool";
      // By path and by name: both resolve the (untrusted) hook.
      for (const target of [`.acai/hooks/my-${lang}${ext}`, `my-${lang}`]) {
        const result = await acai(d, ["hooks", "test", target, "--event", event, "--json"]);
        expect(result.exitCode, `${lang} ${target}: ${result.stdout}${result.stderr}`).toBe(0);
        const report = JSON.parse(result.stdout) as {
          untrusted: boolean;
          exit_code: number;
          decision: { action: string; log?: string };
          stdin: string;
        };
        expect(report.untrusted).toBe(true);
        expect(report.exit_code).toBe(0);
        expect(report.decision).toEqual({ action: "continue", log: `my-${lang} saw ${event}` });
        expect(JSON.parse(report.stdin).event).toBe(event);
      }
    }
    const list = await acai(d, ["hooks", "list", "--json"]);
    const listed = JSON.parse(list.stdout) as { hooks: { name: string; status: string }[] };
    // `hooks test` described them (cached), so list now knows them without running anything.
    expect(listed.hooks.map((h) => [h.name, h.status]).sort()).toEqual(
      LANGS.map(({ lang }) => [`my-${lang}`, "ok"]).sort(),
    );
  });

  it("refuses to overwrite, rejects bad names and unknown events", async () => {
    dirs = await tempProject();
    expect((await acai(dirs, ["hooks", "init", "dup"])).exitCode).toBe(0);
    const again = await acai(dirs, ["hooks", "init", "dup"]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(".acai/hooks/dup.sh already exists");
    expect((await acai(dirs, ["hooks", "init", "dup", "--force"])).exitCode).toBe(0);
    const badName = await acai(dirs, ["hooks", "init", "../escape"]);
    expect(badName.exitCode).toBe(2);
    expect(badName.stderr).toContain("use letters, digits");
    const badEvent = await acai(dirs, ["hooks", "init", "x", "--event", "PreToolUsage"]);
    expect(badEvent.exitCode).toBe(2);
    expect(badEvent.stderr).toContain("unknown event");
  });
});
