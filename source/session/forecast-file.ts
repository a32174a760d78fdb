/**
 * Where the spawner forecast of a folder is kept (spawner-forecast.ts):
 * `ACAI_HOME/cache/spawners-ahead/<hash of the folder>.json`. Node built-ins
 * only, so that `main.ts` looks for it before the rest of acai loads and
 * loads the forecast's code only where there is one.
 */
import path from "node:path";
import { folderKey } from "../process/launch-key.js";

export function forecastFile(cacheDir: string, cwd: string): string {
  return path.join(cacheDir, "spawners-ahead", `${folderKey(cwd)}.json`);
}
