import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  typeStrippingFlags,
  withOwnNodeForTypeScript,
} from "../../../source/hooks/run/typescript-launch.js";
import type { ProcessRunner, RunOptions } from "../../../source/process/types.js";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

function recorder(): { runner: ProcessRunner; seen: RunOptions[] } {
  const seen: RunOptions[] = [];
  return {
    seen,
    runner: async (options) => {
      seen.push(options);
      return {
        exitCode: 0,
        signal: null,
        stdout: "",
        stderr: "",
        timedOut: false,
        aborted: false,
        truncated: { stdout: false, stderr: false },
        durationMs: 1,
      };
    },
  };
}

const NODE = { execPath: "/opt/acai/node", version: "v24.1.0" };

describe("typeStrippingFlags", () => {
  it("knows which Node runs TypeScript, and with which flags", () => {
    expect(typeStrippingFlags("v24.1.0")).toEqual([]);
    expect(typeStrippingFlags("v22.18.0")).toEqual([]);
    expect(typeStrippingFlags("v23.6.1")).toEqual([]);
    expect(typeStrippingFlags("v22.12.0")).toContain("--experimental-strip-types");
    expect(typeStrippingFlags("v22.5.0")).toBeUndefined();
    expect(typeStrippingFlags("v20.11.1")).toBeUndefined();
  });
});

describe("withOwnNodeForTypeScript", () => {
  it("starts `#!/usr/bin/env node` .ts/.mts files and HOOK.md `node x.ts` with acai's Node; nothing else", async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "acai-ts-launch-"));
    const envNode = path.join(dir, "hook.mts");
    const envS = path.join(dir, "hook-s.ts");
    const pinned = path.join(dir, "pinned.ts");
    const js = path.join(dir, "hook.mjs");
    await writeFile(envNode, "#!/usr/bin/env node\nexport {};\n");
    await writeFile(envS, "#!/usr/bin/env -S node\r\nexport {};\n");
    await writeFile(pinned, "#!/usr/local/bin/node --no-warnings\nexport {};\n");
    await writeFile(js, "#!/usr/bin/env node\n");
    const { runner, seen } = recorder();
    const run = withOwnNodeForTypeScript(runner, NODE);
    const base = { cwd: dir, env: {} };
    await run({ ...base, command: envNode, args: ["x"] });
    await run({ ...base, command: envS });
    await run({ ...base, command: "node", args: [path.join(dir, "scripts", "run.ts")] });
    await run({ ...base, command: pinned });
    await run({ ...base, command: js });
    await run({ ...base, command: "/bin/sh", args: ["-c", "node hook.ts"] });
    expect(seen.map((o) => [o.command, ...(o.args ?? [])])).toEqual([
      ["/opt/acai/node", envNode, "x"],
      ["/opt/acai/node", envS],
      ["/opt/acai/node", path.join(dir, "scripts", "run.ts")],
      [pinned],
      [js],
      ["/bin/sh", "-c", "node hook.ts"],
    ]);
  });

  it("adds the strip-types flag for a Node that needs it, and leaves a Node that cannot alone", async () => {
    const { runner, seen } = recorder();
    await withOwnNodeForTypeScript(runner, { execPath: "/n22", version: "v22.12.0" })({
      command: "node",
      args: ["/h/scripts/run.mts"],
      cwd: "/",
      env: {},
    });
    await withOwnNodeForTypeScript(runner, { execPath: "/n20", version: "v20.11.1" })({
      command: "node",
      args: ["/h/scripts/run.mts"],
      cwd: "/",
      env: {},
    });
    expect(seen[0]?.command).toBe("/n22");
    expect(seen[0]?.args).toEqual([
      "--experimental-strip-types",
      "--disable-warning=ExperimentalWarning",
      "/h/scripts/run.mts",
    ]);
    expect(seen[1]?.command).toBe("node");
  });
});
