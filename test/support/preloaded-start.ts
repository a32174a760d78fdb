/**
 * `acai -p hi` of the built CLI with a module of the test's loaded first
 * (`NODE_OPTIONS=--import`): a recorder that watches the start from inside
 * the process (the schemas zod builds, the modules Node loads) and writes
 * what it saw to a file.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FakeOpenAIServer } from "./fake-openai-server.js";
import { type AcaiDirs, type AcaiResult, runAcai } from "./run-acai.js";

export async function runWithPreload(
  dirs: AcaiDirs,
  server: FakeOpenAIServer,
  source: string,
): Promise<AcaiResult> {
  const preload = path.join(dirs.root, "preload.mjs");
  await writeFile(preload, source);
  return runAcai({
    dirs,
    args: ["-p", "hi", "--model", "openai:test-model"],
    baseUrl: server.url,
    env: { NODE_OPTIONS: `--import ${pathToFileURL(preload).href}` },
  });
}
