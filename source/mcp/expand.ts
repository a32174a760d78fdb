/**
 * `${VAR}` and `${VAR:-default}` in an MCP server entry, expanded from acai's
 * environment as Claude Code expands `.mcp.json`: in `command`, `args`, `env`,
 * `url` and `headers`. A variable that is unset and has no default fails that
 * server with a message naming the variable (Claude Code refuses the file).
 * The variables an entry names are shown in the trust review, since a
 * project's server then receives their values.
 */
/** The fields of a server entry that may name variables (config.ts's schema, structurally). */
type ServerShape =
  | { url: string; headers?: Record<string, string> | undefined }
  | { command: string; args?: string[] | undefined; env?: Record<string, string> | undefined };

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export type Expanded<T> = { ok: true; config: T } | { ok: false; missing: string[] };

export function expandServerConfig<T extends ServerShape>(
  config: T,
  env: Readonly<Record<string, string | undefined>>,
): Expanded<T> {
  const missing = new Set<string>();
  const expand = (text: string) =>
    text.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
      const value = env[name];
      // As the shell reads them: `${VAR}` is empty when VAR is set but empty; `:-` also covers empty.
      if (value !== undefined && (value !== "" || fallback === undefined)) return value;
      if (fallback !== undefined) return fallback;
      missing.add(name);
      return "";
    });
  const expandMap = (map: Readonly<Record<string, string>> | undefined) =>
    map === undefined
      ? undefined
      : Object.fromEntries(Object.entries(map).map(([key, value]) => [key, expand(value)]));
  let expanded: T;
  if ("url" in config) {
    const headers = expandMap(config.headers);
    expanded = { ...config, url: expand(config.url), ...(headers ? { headers } : {}) };
  } else {
    const env2 = expandMap(config.env);
    expanded = {
      ...config,
      command: expand(config.command),
      ...(config.args ? { args: config.args.map(expand) } : {}),
      ...(env2 ? { env: env2 } : {}),
    };
  }
  return missing.size > 0 ? { ok: false, missing: [...missing] } : { ok: true, config: expanded };
}

/** The variables an entry reads from the environment, in order of first mention. */
export function variablesOf(config: ServerShape): string[] {
  const texts =
    "url" in config
      ? [config.url, ...Object.values(config.headers ?? {})]
      : [config.command, ...(config.args ?? []), ...Object.values(config.env ?? {})];
  const names = new Set<string>();
  for (const text of texts)
    for (const match of text.matchAll(REFERENCE)) names.add(match[1] as string);
  return [...names];
}
