/**
 * Where a file path really lands, as the file system will resolve it: every
 * symbolic link on the way followed — also one that dangles, and one that
 * points at a folder not created yet — with the part that does not exist yet
 * appended as given. The permission decision judges this path (its rules and
 * acceptEdits' "inside the project"), and Write/Edit write exactly there
 * (`write-no-follow.ts`), so a link cannot carry a write out of what was allowed.
 */
import { lstatSync, readlinkSync, statSync } from "node:fs";
import path from "node:path";

/** Links followed on one path before giving up, as Linux's ELOOP limit. */
const MAX_LINK_HOPS = 40;

export type Landing = { ok: true; path: string } | { ok: false; reason: string };

/** The absolute path `file` (absolute) lands on, or why it cannot be told (a link loop). */
export function landingOf(file: string): Landing {
  const pending = segments(path.resolve(file));
  let resolved: string = path.sep;
  let hops = 0;
  let missing = false;
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    if (name === "" || name === ".") continue;
    if (name === "..") {
      resolved = path.dirname(resolved);
      continue;
    }
    const candidate = path.join(resolved, name);
    const link = missing ? undefined : linkTarget(candidate);
    if (link === undefined || link === MISSING) {
      if (link === MISSING) missing = true;
      resolved = candidate;
      continue;
    }
    if (++hops > MAX_LINK_HOPS) {
      return { ok: false, reason: `${file} goes through more than ${MAX_LINK_HOPS} links` };
    }
    if (path.isAbsolute(link)) resolved = path.sep;
    pending.unshift(...segments(link));
  }
  return { ok: true, path: resolved };
}

/** The landing's path, or undefined when it cannot be told (the caller then judges `file` itself). */
export function landingOrUndefined(file: string): string | undefined {
  const landing = landingOf(file);
  return landing.ok ? landing.path : undefined;
}

const MISSING = Symbol("missing");

/** A link's target; undefined for anything that is not a link; MISSING when nothing is there. */
function linkTarget(file: string): string | undefined | typeof MISSING {
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(file, { throwIfNoEntry: false });
  } catch {
    // ENOTDIR, EACCES: the kernel would fail there too; judged as written.
    return MISSING;
  }
  if (info === undefined) return MISSING;
  if (!info.isSymbolicLink()) return undefined;
  try {
    return readlinkSync(file);
  } catch {
    return MISSING;
  }
}

function segments(p: string): string[] {
  return p.split(path.sep);
}

/**
 * Where a Write/Edit/Read of `file` lands now, refused when it is not where
 * the permission check judged it would (`judged`: a link was swapped in since).
 */
export function landingAsJudged(file: string, judged: string | undefined): Landing {
  const landing = landingOf(file);
  if (!landing.ok || judged === undefined || landing.path === judged) return landing;
  return {
    ok: false,
    reason: `${file} now leads to ${landing.path}, not to ${judged} where the permission check judged it; nothing was done.`,
  };
}

/**
 * Whether two paths are one file on disk (same device and inode, links
 * followed): how a rule naming `.env` catches a hard link to it. False when
 * either cannot be read.
 */
export function sameFileOnDisk(a: string, b: string): boolean {
  try {
    const x = statSync(a);
    const y = statSync(b);
    return x.ino === y.ino && x.dev === y.dev;
  } catch {
    return false;
  }
}
