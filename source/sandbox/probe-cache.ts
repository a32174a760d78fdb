/**
 * The bwrap probe's success remembered under ACAI_HOME/cache (issue 25 item 2:
 * the probe, one `bwrap … true` started and waited for, was most of a session's
 * start-up in a project with hooks). Only a success is kept, keyed by what it
 * depends on: the bwrap file itself (real path, device, inode, size, mode,
 * owner, times), the probe's arguments, the kernel (release and build), acai's
 * uid, the user-namespace switches under /proc/sys, and the namespaces and
 * seccomp state acai runs in (another container, another answer).
 *
 * Fail closed: a failure is never kept, so a cached answer can only say
 * "available". Were that stale (the system changed in a way the key misses),
 * the sandboxed launches fail with bwrap's own error — nothing runs outside the
 * sandbox because of the cache. A file that does not parse, is too large or
 * does not match is ignored and the probe runs. `acai doctor` probes afresh.
 */
import { readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import os from "node:os";
import { z } from "zod";
import { writePrivateFileAtomicSync } from "../config/private-files.js";
import { PARSED_ONCE } from "../shared/parsed-once.js";
import type { ProbeResult } from "./detect.js";

type Probe = (bwrap: string, args: readonly string[]) => ProbeResult;

export interface ProbeCacheOptions {
  /** The cache file (ACAI_HOME/cache/sandbox-probe.json). */
  file: string;
  /** The real probe. */
  probe: Probe;
  /** What else the answer depends on (default: this machine's kernel, uid, namespaces; tests vary it). */
  system?: () => string;
}

const MAX_CACHE_BYTES = 16 * 1024;

const CacheFile = z.lazy(() => z.object({ version: z.literal(1), key: z.string() }).strict());

/** The probe, answered from the cache when the same probe of the same bwrap on the same system succeeded. */
export function cachedProbe(options: ProbeCacheOptions): Probe {
  return (bwrap, args) => {
    const key = probeKey(bwrap, args, options.system ?? systemState);
    if (key !== undefined && readKey(options.file) === key) return { status: 0, stderr: "" };
    const result = options.probe(bwrap, args);
    if (result.status === 0 && key !== undefined) writeKey(options.file, key);
    return result;
  };
}

/** The probe's key, or undefined when bwrap cannot be examined (then nothing is cached). */
function probeKey(
  bwrap: string,
  args: readonly string[],
  system: () => string,
): string | undefined {
  try {
    const real = realpathSync(bwrap);
    const s = statSync(real, { bigint: true });
    const file = [real, s.dev, s.ino, s.size, s.mode, s.uid, s.mtimeNs, s.ctimeNs].join(":");
    return JSON.stringify({ bwrap: file, args, system: system() });
  } catch {
    return undefined;
  }
}

/** A /proc or /proc/sys file's text, or "-" where there is none. */
function procText(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return "-";
  }
}

function procLink(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return "-";
  }
}

/** The kernel, the uid, the user-namespace switches and the namespaces/seccomp acai runs in. */
function systemState(): string {
  const seccomp = /^Seccomp:\s*(\d+)/m.exec(procText("/proc/self/status"))?.[1] ?? "-";
  return [
    os.release(),
    os.version(),
    String(process.getuid?.() ?? "-"),
    procText("/proc/sys/kernel/unprivileged_userns_clone"),
    procText("/proc/sys/user/max_user_namespaces"),
    procText("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
    procLink("/proc/self/ns/user"),
    procLink("/proc/self/ns/mnt"),
    procLink("/proc/self/ns/pid"),
    seccomp,
  ].join("|");
}

function readKey(file: string): string | undefined {
  try {
    if (statSync(file).size > MAX_CACHE_BYTES) return undefined;
    const parsed = CacheFile.safeParse(JSON.parse(readFileSync(file, "utf8")), PARSED_ONCE);
    return parsed.success ? parsed.data.key : undefined;
  } catch {
    return undefined;
  }
}

/** Written beside and renamed over; a failure only means no cache (the next session probes again). */
function writeKey(file: string, key: string): void {
  writePrivateFileAtomicSync(file, JSON.stringify({ version: 1, key }));
}
