import { readFileSync } from "node:fs";

/** acai's version from its package.json (`0.0.0` when it cannot be read); built files sit two folders below it. */
export function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    return typeof pkg.version === "string" ? pkg.version : "0.0.0";
  } catch {
    return "0.0.0";
  }
}
