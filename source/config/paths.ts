import path from "node:path";

/** Every location acai uses under ACAI_HOME (default `~/.acai`). */
export interface AcaiPaths {
  home: string;
  settingsFile: string;
  hooksDir: string;
  toolsDir: string;
  transcriptsDir: string;
  logsDir: string;
  cacheDir: string;
  trustFile: string;
  replHistoryFile: string;
}

export interface ResolveAcaiPathsOptions {
  env: Readonly<Record<string, string | undefined>>;
  homeDir: string;
  /** Base for a relative ACAI_HOME (default: homeDir). */
  cwd?: string;
}

export function resolveAcaiPaths(options: ResolveAcaiPathsOptions): AcaiPaths {
  const fromEnv = options.env.ACAI_HOME?.trim();
  const home = fromEnv
    ? path.resolve(options.cwd ?? options.homeDir, fromEnv)
    : path.join(options.homeDir, ".acai");
  return {
    home,
    settingsFile: path.join(home, "settings.json"),
    hooksDir: path.join(home, "hooks"),
    toolsDir: path.join(home, "tools"),
    transcriptsDir: path.join(home, "transcripts"),
    logsDir: path.join(home, "logs"),
    cacheDir: path.join(home, "cache"),
    trustFile: path.join(home, "trust.json"),
    replHistoryFile: path.join(home, "repl-history"),
  };
}

/** The project's own `.acai/` folder. The project directory is the working directory acai runs in. */
export interface ProjectPaths {
  root: string;
  dir: string;
  settingsFile: string;
  localSettingsFile: string;
  hooksDir: string;
  toolsDir: string;
}

export function resolveProjectPaths(projectDir: string): ProjectPaths {
  const root = path.resolve(projectDir);
  const dir = path.join(root, ".acai");
  return {
    root,
    dir,
    settingsFile: path.join(dir, "settings.json"),
    localSettingsFile: path.join(dir, "settings.local.json"),
    hooksDir: path.join(dir, "hooks"),
    toolsDir: path.join(dir, "tools"),
  };
}
