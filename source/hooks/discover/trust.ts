import { randomBytes } from "node:crypto";
import { readFile, realpath, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { ensurePrivateDir } from "../../config/private-files.js";
import { PARSED_ONCE } from "../../shared/parsed-once.js";

/**
 * Trust records in `<ACAI_HOME>/trust.json`: per project (its real absolute
 * path), the fingerprint of the hook set the user agreed to. A project is
 * trusted only while its current fingerprint equals the recorded one, so any
 * change to a project hook file or hook setting revokes trust by itself.
 */
const TrustRecordSchema = z.lazy(() =>
  z.object({
    fingerprint: z.string(),
    trustedAt: z.string(),
    /**
     * What was trusted, entry by entry (project/manifest.ts: key → digest), so
     * the next review can say what was added, removed or edited. Absent in
     * records written before acai kept it.
     */
    entries: z.record(z.string(), z.string()).optional(),
    /**
     * The describe `env` requests of the project's executables the user
     * confirmed for this set (project/env-confirmation.ts): key → names. Dropped
     * when the set is trusted anew (the executables may ask differently).
     */
    env: z.record(z.string(), z.array(z.string()).max(256)).optional(),
  }),
);
export type TrustRecord = z.infer<typeof TrustRecordSchema>;

const TrustFileSchema = z.lazy(() =>
  z.object({
    version: z.literal(1),
    projects: z.record(z.string(), TrustRecordSchema),
  }),
);
type TrustFile = z.infer<typeof TrustFileSchema>;

export interface TrustOptions {
  acaiHome: string;
  projectDir: string;
}

export function trustFilePath(acaiHome: string): string {
  return path.join(acaiHome, "trust.json");
}

async function projectKey(projectDir: string): Promise<string> {
  try {
    return await realpath(projectDir);
  } catch {
    return path.resolve(projectDir);
  }
}

/** A missing or unreadable trust file trusts nothing. */
async function readTrustFile(acaiHome: string): Promise<TrustFile> {
  try {
    const parsed = TrustFileSchema.safeParse(
      JSON.parse(await readFile(trustFilePath(acaiHome), "utf8")),
      PARSED_ONCE,
    );
    if (parsed.success) return parsed.data;
  } catch {
    // absent or corrupt
  }
  return { version: 1, projects: {} };
}

async function writeTrustFile(acaiHome: string, data: TrustFile): Promise<void> {
  const file = trustFilePath(acaiHome);
  await ensurePrivateDir(path.dirname(file));
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(data, null, 2)}\n`, { encoding: "utf8", mode: 0o600 });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export async function getProjectTrust(options: TrustOptions): Promise<TrustRecord | undefined> {
  const data = await readTrustFile(options.acaiHome);
  return data.projects[await projectKey(options.projectDir)];
}

/** True when the project has no hooks (`fingerprint` null) or the user trusted exactly this set. */
export async function isProjectTrusted(
  options: TrustOptions & { fingerprint: string | null },
): Promise<boolean> {
  if (options.fingerprint === null) return true;
  const record = await getProjectTrust(options);
  return record?.fingerprint === options.fingerprint;
}

/** Records the current hook set as trusted (replacing any earlier record for the project). */
export async function trustProject(
  options: TrustOptions & {
    fingerprint: string;
    entries?: readonly { key: string; digest: string }[];
    now?: () => Date;
  },
): Promise<TrustRecord> {
  const data = await readTrustFile(options.acaiHome);
  const record: TrustRecord = {
    fingerprint: options.fingerprint,
    trustedAt: (options.now?.() ?? new Date()).toISOString(),
    ...(options.entries
      ? { entries: Object.fromEntries(options.entries.map((e) => [e.key, e.digest])) }
      : {}),
  };
  data.projects[await projectKey(options.projectDir)] = record;
  await writeTrustFile(options.acaiHome, data);
  return record;
}

/**
 * Records the describe `env` requests the user confirmed, for the set trusted
 * with `fingerprint` only: false (nothing written) when the record is gone or
 * is for another set by now.
 */
export async function recordConfirmedEnv(
  options: TrustOptions & { fingerprint: string; env: Readonly<Record<string, readonly string[]>> },
): Promise<boolean> {
  const data = await readTrustFile(options.acaiHome);
  const key = await projectKey(options.projectDir);
  const record = data.projects[key];
  if (record?.fingerprint !== options.fingerprint) return false;
  const env = Object.fromEntries(
    Object.entries(options.env).map(([file, names]) => [file, [...new Set(names)].sort()]),
  );
  data.projects[key] = { ...record, env };
  await writeTrustFile(options.acaiHome, data);
  return true;
}

/** Forgets the project's trust; returns whether there was a record. */
export async function revokeProjectTrust(options: TrustOptions): Promise<boolean> {
  const data = await readTrustFile(options.acaiHome);
  const key = await projectKey(options.projectDir);
  if (!(key in data.projects)) return false;
  delete data.projects[key];
  await writeTrustFile(options.acaiHome, data);
  return true;
}
