/**
 * The containment marker: an environment variable every child acai starts
 * inherits, and passes on to its own descendants — also to those that call
 * `setsid`, double-fork or change their process group, which no process-group
 * kill reaches. At clean-up acai finds them by it in `/proc/<pid>/environ`.
 *
 * The name carries this acai process's random id (`ACAI_RUN_<id>`), the value
 * the run (`<n>`): one acai's sweep never touches another's children, a nested
 * acai's children carry the markers of every acai above them, and one run's
 * escapees can be swept without touching the others.
 */
import { randomBytes } from "node:crypto";

const MARKER_PREFIX = "ACAI_RUN_";

/** A fresh marker name for one acai process, e.g. `ACAI_RUN_9F2C41D07BE3A865`. */
export function newMarkerName(): string {
  return `${MARKER_PREFIX}${randomBytes(8).toString("hex").toUpperCase()}`;
}

/** The markers this process inherited (it runs inside another acai): its children keep them. */
export function inheritedMarkers(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const markers: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(MARKER_PREFIX) && value !== undefined) markers[name] = value;
  }
  return markers;
}

/** The environ entry that marks every process of this acai (`NAME=`, any run). */
export function anyRunEntry(markerName: string): string {
  return `${markerName}=`;
}

/** The environ entry that marks one run's processes (`NAME=<runId>`, the whole entry). */
export function runEntry(markerName: string, runId: string): string {
  return `${markerName}=${runId}\0`;
}
