/**
 * Rewriting one settings file on the user's behalf (`acai mcp add`, the
 * REPL's "don't ask again in this project"): its JSON object read as a
 * bounded regular file, the new object written beside it and renamed over
 * it, so it is never half written. In a project (`refuseLinks`) a link or
 * anything but a folder / regular file at the file or its folder is refused:
 * a cloned repository must not turn the write into one elsewhere. The user's
 * own files may be links (a dotfiles set-up).
 */
import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MAX_PROJECT_FILE_BYTES, readRegularFileSync } from "./read-regular-file.js";

export type SettingsObjectRead =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: string };

/** The file's JSON object; `{}` when it does not exist. */
export function readSettingsObject(file: string): SettingsObjectRead {
  const read = readRegularFileSync(file, MAX_PROJECT_FILE_BYTES);
  if (!read.ok) {
    if (read.problem === "missing") return { ok: true, value: {} };
    return { ok: false, error: `${file} could not be read (${read.problem}); fix or remove it` };
  }
  try {
    const value: unknown = JSON.parse(read.data.toString("utf8"));
    return isRecord(value)
      ? { ok: true, value }
      : { ok: false, error: `${file} is not a JSON object; fix or remove it` };
  } catch {
    return { ok: false, error: `${file} is not valid JSON; fix or remove it` };
  }
}

/** Where a write may not go: the folder or the file is a link or not what it should be. */
export function refusedTarget(file: string): string | undefined {
  const dir = path.dirname(file);
  const dirKind = kindOf(dir);
  if (dirKind !== "missing" && dirKind !== "dir") return `${dir} is a link or not a folder`;
  const fileKind = kindOf(file);
  if (fileKind !== "missing" && fileKind !== "file") return `${file} is a link or not a file`;
  return undefined;
}

/** Writes `value` as the file's whole text (its folder made when missing); the error in words otherwise. */
export function writeSettingsObject(
  file: string,
  value: Record<string, unknown>,
  options: { refuseLinks: boolean },
): { ok: true } | { ok: false; error: string } {
  const refused = options.refuseLinks ? refusedTarget(file) : undefined;
  if (refused !== undefined) return { ok: false, error: refused };
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { flag: "wx", mode: 0o644 });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    return { ok: false, error: `${file} could not be written: ${(error as Error).message}` };
  }
  return { ok: true };
}

function kindOf(file: string): "missing" | "dir" | "file" | "other" {
  try {
    const stats = lstatSync(file);
    return stats.isDirectory() ? "dir" : stats.isFile() ? "file" : "other";
  } catch {
    return "missing";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
