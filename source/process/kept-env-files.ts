/**
 * The CLAUDE_ENV_FILEs one sandbox spawner keeps in its namespace (decision
 * 0069): a session_start hook's file lives in the namespace's private
 * /dev/shm while the hook runs, and what it holds at the hook's exit is
 * written back to the file acai reads (`$ACAI_HOME/session-env/…`, which no
 * sandbox may write). So the hook shares the spawner of the hooks that may
 * not write that file, instead of a policy and a spawner of its own.
 *
 * That is only as private as the namespace: any process in it could write
 * the file while the hook runs. So a spawner keeps files only while nothing
 * but such runs has run in it (`private`); the first run of anything else
 * ends that for good, and the files of runs still going then are not written
 * back (`tainted`). Nothing is lost by that: the launcher runs a hook that
 * can no longer keep its file here in the policy that may write it
 * (sandbox-launch.ts).
 */
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { readRegularFileSync } from "../config/read-regular-file.js";
import { ENV_FILE_MAX_BYTES } from "./spawner-wire.js";

interface Kept {
  file: string;
  tainted: boolean;
}

export class KeptEnvFiles {
  private otherRan = false;
  private readonly runs = new Map<number, Kept>();

  /** Nothing but runs that keep their env file has run in the spawner. */
  get private(): boolean {
    return !this.otherRan;
  }

  /**
   * Run `id` keeps `file`: what it holds now (base64) is what the run's copy starts with —
   * nothing when acai would not read it either (a link, not a regular file, too large).
   */
  begin(id: number, file: string): string {
    this.runs.set(id, { file, tainted: false });
    const read = readRegularFileSync(file, ENV_FILE_MAX_BYTES, { followLinks: false });
    return read.ok ? read.data.toString("base64") : "";
  }

  /** A run that keeps none starts: from now on nothing is kept, nor written back from runs still going. */
  otherRun(): void {
    this.otherRan = true;
    for (const kept of this.runs.values()) kept.tainted = true;
  }

  /** Run `id` exited with its copy (`back`, base64, from the spawner's exit line): written back unless tainted. */
  end(id: number, back: unknown): void {
    const kept = this.runs.get(id);
    this.runs.delete(id);
    if (kept === undefined || kept.tainted || typeof back !== "string") return;
    const bytes = Buffer.from(back, "base64");
    if (bytes.length > ENV_FILE_MAX_BYTES + 1) return;
    let fd: number;
    try {
      // Never through a link left in its place (ELOOP): then nothing is written.
      fd = openSync(kept.file, WRITE_FLAGS, 0o600);
    } catch {
      return; // the session's folder is gone (the session ended): nothing reads the file any more
    }
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    } catch {
      // A full disk: the hook's variables are lost as if it had not written them.
    } finally {
      closeSync(fd);
    }
  }

  forget(id: number): void {
    this.runs.delete(id);
  }
}

const WRITE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
