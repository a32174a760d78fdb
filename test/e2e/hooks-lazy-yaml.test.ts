/**
 * Start-up: the `yaml` package is imported only when a HOOK.md exists. Runs
 * the built hook scan in a child Node with a resolve hook recording every
 * module specifier.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, REPO_ROOT } from "../support/run-acai.js";

let dirs: AcaiDirs;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-lazy-yaml-");
});
afterEach(async () => {
  await dirs.cleanup();
});

const registry = pathToFileURL(
  path.join(REPO_ROOT, "dist", "hooks", "discover", "registry.js"),
).href;

/** Whether scanning `dirs.cwd` imported `yaml`, and how many HOOK.md hooks it found. */
function scan(): { yaml: boolean; hookMds: number } {
  const script = `
import { registerHooks } from "node:module";
let yaml = false;
registerHooks({ resolve(specifier, context, next) { if (specifier === "yaml") yaml = true; return next(specifier, context); } });
const { scanHookSources } = await import(${JSON.stringify(registry)});
const scan = await scanHookSources({ projectDir: ${JSON.stringify(dirs.cwd)}, acaiHome: ${JSON.stringify(dirs.acaiHome)}, homeDir: ${JSON.stringify(dirs.home)}, settingsFiles: [] });
console.log(JSON.stringify({ yaml, hookMds: scan.hookMds.length }));
`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  return JSON.parse(out.trim()) as { yaml: boolean; hookMds: number };
}

it("scanning a project without HOOK.md never imports yaml; with one it does", async () => {
  await mkdir(path.join(dirs.cwd, ".acai", "hooks"), { recursive: true });
  expect(scan()).toEqual({ yaml: false, hookMds: 0 });
  const dir = path.join(dirs.cwd, ".agents", "hooks", "gate");
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "HOOK.md"), "---\nname: gate\ntrigger: pre-session\n---\n");
  expect(scan()).toEqual({ yaml: true, hookMds: 1 });
});
