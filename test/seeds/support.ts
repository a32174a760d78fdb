/**
 * Helpers for the seed systems' examples (test/seeds/<seed>/): copy an
 * example as its users would install it, and drive `acai -p` with the replay
 * model. Each test makes its own dirs (makeAcaiDirs) and cleans them up.
 */
import { cp, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type AcaiDirs, type AcaiResult, runAcai } from "../support/run-acai.js";

const SEEDS_DIR = path.dirname(fileURLToPath(import.meta.url));

export type ToolCall = { name: string; input: Record<string, unknown> };

/** A replay model making the given tool calls (one step each), then answering `done`. */
export async function replayModel(dirs: AcaiDirs, calls: ToolCall[]): Promise<string> {
  const file = path.join(dirs.root, "replay.json");
  const turns = [...calls.map((call) => ({ text: "", tool_calls: [call] })), { text: "done" }];
  await writeFile(file, JSON.stringify({ turns }));
  return `replay:${file}`;
}

/** Copies `test/seeds/<from>` to `to` (modes kept: scripts stay executable). */
export async function installExample(from: string, to: string): Promise<void> {
  await cp(path.join(SEEDS_DIR, from), to, { recursive: true, preserveTimestamps: true });
}

/** `acai -p go` with the model and extra flags, in the dirs' project. */
export function runPrompt(
  dirs: AcaiDirs,
  model: string,
  extra: string[] = [],
): Promise<AcaiResult> {
  return runAcai({ args: ["-p", "go", "--model", model, ...extra], dirs });
}
