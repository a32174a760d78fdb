/**
 * The sandbox spawners a session starts ahead (spawners-ahead.ts), foreseen
 * from the last session started in the same folder (issue 25 item 2,
 * decision 0055): `acai -p` starts them from `main.ts`, before it loads the
 * rest of acai, so that each is ready (bwrap and a Node, 40–120 ms) when the
 * first hook needs it instead of being started only once the hook registry
 * is known, ~300 ms into the start.
 *
 * What is foreseen is a launch — the policy's complete bwrap arguments and
 * the kind of spawner, Python or Node (decision 0059) — as the last session
 * computed it, kept in `ACAI_HOME/cache/spawners-ahead/`
 * (one file per folder, private like the rest of ACAI_HOME). A foreseen
 * spawner runs acai's own spawner script and nothing else; it serves this
 * session only if the session, having assessed, trusted and set up its
 * sandbox as always, asks for a launch of the same key (the hash of the same
 * arguments and spawner kind: process/launch-key.ts), and is stopped otherwise
 * (`settleForecast`). So a stale or forged file can cost a Node started for
 * nothing, never a looser sandbox or a hook run early. A file that does not
 * parse, is too large, or names another folder is ignored.
 */
import { readFileSync, rmSync, statSync } from "node:fs";
import { z } from "zod";
import { writePrivateFileAtomicSync } from "../config/private-files.js";
import { launchKey } from "../process/launch-key.js";
import type { SandboxLauncher } from "../process/sandbox-launch.js";
import type { SandboxLaunch } from "../process/types.js";
import { PARSED_ONCE } from "../shared/parsed-once.js";
import { forecastFile } from "./forecast-file.js";

const MAX_FORECAST_BYTES = 64 * 1024;
const MAX_LAUNCHES = 8;

const ForecastFile = z.lazy(() =>
  z
    .object({
      // 2: each launch names its spawner kind (decision 0059); a version-1 file is not read.
      version: z.literal(2),
      cwd: z.string(),
      launches: z
        .array(
          z
            .object({
              name: z.string().max(200),
              bwrapArgs: z.array(z.string().max(4096)).max(2000),
              helper: z.enum(["python", "node"]),
            })
            .strict(),
        )
        .max(MAX_LAUNCHES),
    })
    .strict(),
);

/**
 * Whether a command line (after `node main.js`) is one whose session is worth foreseeing:
 * `acai -p`, not with the project left out (its hooks would not run). A wrong guess only
 * starts a spawner nobody claims.
 */
export function forecastApplies(args: readonly string[]): boolean {
  const print = args.some((arg) => arg === "-p" || arg === "--print" || arg.startsWith("--print="));
  return print && !args.includes("--no-project") && !args.includes("--no-project-hooks");
}

/** The launches the last session in `cwd` started ahead; none when the file is missing or not sound. */
export function readForecast(file: string, cwd: string): SandboxLaunch[] {
  try {
    if (statSync(file).size > MAX_FORECAST_BYTES) return [];
    const parsed = ForecastFile.safeParse(JSON.parse(readFileSync(file, "utf8")), PARSED_ONCE);
    if (!parsed.success || parsed.data.cwd !== cwd) return [];
    // The key is computed here, never read: it names exactly these arguments and spawner kind.
    return parsed.data.launches.map((l) => ({ ...l, key: launchKey(l.bwrapArgs, l.helper) }));
  } catch {
    return [];
  }
}

/** Starts the foreseen spawners in the background (main.ts, before the rest of acai loads). */
export function foreseeSpawners(options: {
  cacheDir: string;
  cwd: string;
  launcher: Pick<SandboxLauncher, "foresee">;
}): void {
  for (const launch of readForecast(forecastFile(options.cacheDir, options.cwd), options.cwd)) {
    options.launcher.foresee(launch);
  }
}

/**
 * Once the session started its own spawners ahead: the foreseen ones it did not ask for
 * are stopped, and its launches are what the next session in `cwd` foresees (the file is
 * written only when they changed; `foreseeable` leaves out launches that name something of
 * this session only, such as a network bridge's socket folder).
 */
export function settleForecast(options: {
  cacheDir: string;
  cwd: string;
  launcher: Pick<SandboxLauncher, "dropUnclaimed">;
  launches: readonly SandboxLaunch[];
  foreseeable: (launch: SandboxLaunch) => boolean;
}): void {
  options.launcher.dropUnclaimed();
  const file = forecastFile(options.cacheDir, options.cwd);
  const launches = options.launches.filter(options.foreseeable).slice(0, MAX_LAUNCHES);
  const known = readForecast(file, options.cwd);
  const same =
    known.length === launches.length && known.every((l, i) => l.key === launches[i]?.key);
  if (same) return;
  if (launches.length === 0) {
    try {
      rmSync(file, { force: true });
    } catch {
      // A file that stays only costs a Node started for nothing next time.
    }
    return;
  }
  writeForecast(file, {
    version: 2,
    cwd: options.cwd,
    launches: launches.map(({ name, bwrapArgs, helper }) => ({
      name,
      bwrapArgs: [...bwrapArgs],
      helper,
    })),
  });
}

/** Written beside and renamed over; a failure only means no forecast. */
function writeForecast(file: string, forecast: z.infer<typeof ForecastFile>): void {
  writePrivateFileAtomicSync(file, JSON.stringify(forecast));
}
