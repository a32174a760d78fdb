/**
 * Builds the floor program (bench/support/ai-sdk-alone.ts: the AI SDK's
 * `streamText` and nothing of acai) into `dir`, as favourably as acai's own
 * bundle is built: one esbuild file, every chunk-level function compiled
 * eagerly (scripts/bundle-eager.mjs with no training: all of them), loaded
 * only after Node's compile cache is on (a cache of its own in `dir`). What
 * `acai -p` takes beyond this program's time to its request is acai's own
 * share of the start-up; the program's own time is a floor no change to acai
 * can go under while acai uses these libraries on this Node.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
// @ts-expect-error: a build script in plain JavaScript (scripts/), without types.
import { eagerChunk } from "../../scripts/bundle-eager.mjs";
// @ts-expect-error: a build script in plain JavaScript (scripts/), without types.
import { sdkHeaders } from "../../scripts/bundle-headers.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The floor program's entry (run it as `node <entry>`), built into `dir`. */
export async function buildAiSdkFloor(dir: string): Promise<string> {
  const bundled = path.join(dir, "alone.js");
  await build({
    entryPoints: [path.join(here, "ai-sdk-alone.ts")],
    outfile: bundled,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22.13",
    banner: {
      js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
    },
    plugins: [sdkHeaders(path.resolve(here, "..", "..", "source"))],
    logLevel: "error",
  });
  const text = await readFile(bundled, "utf8");
  await writeFile(
    bundled,
    (eagerChunk as (n: string, t: string, u?: Set<number>) => string)("alone.js", text),
  );
  const entry = path.join(dir, "main.mjs");
  const cache = JSON.stringify(path.join(dir, "compile-cache"));
  await writeFile(
    entry,
    `import module from "node:module";\nmodule.enableCompileCache?.(${cache});\nawait import("./alone.js");\n`,
  );
  return entry;
}
