/**
 * What a plugin starts (worker.ts wraps child_process): every form — spawn,
 * exec, execFile, spawnSync, execFileSync, execSync — keeps acai's marker even
 * when the plugin passes an empty environment, and, with `children` (bwrap),
 * runs in a PID namespace other than acai's. Without `children` (no bwrap:
 * the marker fallback) the marker still holds.
 */
import { readlinkSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PluginHost } from "../../../../source/hooks/run/plugins/host.js";
import { pluginChildren } from "../../../../source/hooks/run/plugins/session.js";
import { containmentInForce } from "../../../../source/process/bwrap.js";
import { waitFor } from "../../../process/survivors.js";

const FORMS = ["spawn", "exec", "execFile", "spawnSync", "execFileSync", "execSync"];
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "acai-plugin-children-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Each form runs a shell line that writes its marker variable and PID namespace to `<dir>/<form>`. */
function plugin(): string {
  const line = (form: string) =>
    `echo "$ACAI_RUN_PLUGINTEST $(readlink /proc/self/ns/pid)" > ${dir}/${form}`;
  return `
import * as cp from "node:child_process";
export function register() {
  const env = {};
  cp.spawn("/bin/sh", ["-c", ${JSON.stringify(line("spawn"))}], { env, stdio: "ignore" });
  cp.exec(${JSON.stringify(line("exec"))}, { env });
  cp.execFile("/bin/sh", ["-c", ${JSON.stringify(line("execFile"))}], { env });
  cp.spawnSync("/bin/sh", ["-c", ${JSON.stringify(line("spawnSync"))}], { env });
  cp.execFileSync("/bin/sh", ["-c", ${JSON.stringify(line("execFileSync"))}], { env });
  cp.execSync(${JSON.stringify(line("execSync"))}, { env });
}
`;
}

async function load(withChildren: boolean): Promise<Map<string, string[]>> {
  const file = join(dir, "children.mjs");
  await writeFile(file, plugin());
  const children = withChildren ? pluginChildren() : undefined;
  const host = new PluginHost({
    env: { PATH: "/usr/bin:/bin", ACAI_RUN_PLUGINTEST: "7" },
    ...(children ? { children } : {}),
  });
  const loaded = await host.load(file);
  expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
  const seen = new Map<string, string[]>();
  const all = async () => {
    for (const form of FORMS) {
      const text = await readFile(join(dir, form), "utf8").catch(() => "");
      if (text.endsWith("\n")) seen.set(form, text.trim().split(" "));
    }
    return seen.size === FORMS.length;
  };
  let done = false;
  await waitFor(() => {
    void all().then((ok) => {
      done = ok;
    });
    return done;
  }, 15_000);
  return seen;
}

describe("a plugin's children", () => {
  it.skipIf(containmentInForce().kind !== "namespace")(
    "carry acai's marker in an empty environment and run in a PID namespace of their own",
    async () => {
      const seen = await load(true);
      const own = readlinkSync("/proc/self/ns/pid");
      for (const form of FORMS) {
        const [marker, ns] = seen.get(form) ?? [];
        expect(marker, form).toBe("7");
        expect(ns, form).toMatch(/^pid:\[\d+\]$/);
        expect(ns, form).not.toBe(own);
      }
    },
  );

  it("carry acai's marker in an empty environment without bwrap (the marker fallback)", async () => {
    const seen = await load(false);
    const own = readlinkSync("/proc/self/ns/pid");
    for (const form of FORMS) {
      const [marker, ns] = seen.get(form) ?? [];
      expect(marker, form).toBe("7");
      expect(ns, form).toBe(own);
    }
  });
});
