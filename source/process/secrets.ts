/**
 * The one scrubbing policy for the environment of code acai starts on the
 * user's behalf but does not fully trust with the user's credentials: hooks
 * (and their describe steps) and dynamic tools. The Bash tool is the user's
 * shell and is not scrubbed.
 *
 * A variable is removed when its name contains a secret word, when it names an
 * agent socket (which hands out signatures/decryptions without the key ever
 * being in the environment), or when its value carries a credential (a URL
 * with `user:password@`, a connection string with a password, a private key,
 * a token in a well-known format). A hook or tool gets one back only by naming
 * it in its `env` allow-list.
 *
 * Pure: no process.env, no I/O (its one memo only saves work).
 */

/**
 * A name an `env` allow-list may hold. Stricter than POSIX on purpose: the
 * names are shown when the user is asked to trust a project, so no `=`, no
 * spaces, no control characters.
 */
export const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;

/** Why a variable was removed. */
export type SecretReason = "name" | "agent-socket" | "value";

interface RemovedVariable {
  name: string;
  reason: SecretReason;
}

/**
 * Never removed, whatever their names or values look like: what every program
 * needs to work, and names the word rules would catch by accident.
 * `PWD`/`OLDPWD` are the working directory, not a password. The session
 * variables describe the desktop session (no secret in them); without
 * `DBUS_SESSION_BUS_ADDRESS` a notification hook's `notify-send` fails, and
 * the bus is reachable at `$XDG_RUNTIME_DIR/bus` anyway.
 */
const KEPT_NAMES: ReadonlySet<string> = new Set([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "TERM",
  "TMPDIR",
  "PWD",
  "OLDPWD",
  "XDG_SESSION_ID",
  "XDG_SESSION_TYPE",
  "XDG_SESSION_CLASS",
  "XDG_SESSION_DESKTOP",
  "DESKTOP_SESSION",
  "DBUS_SESSION_BUS_ADDRESS",
]);

/**
 * Words that make a variable secret when they are a whole segment of its name.
 * Segments are split on anything that is not a letter and at camelCase
 * boundaries, so `GH_PAT`, `S3_KEY`, `npm_config__authToken` and `OAUTH2_TOKEN`
 * all have a secret segment while `PATH`, `KEYBOARD` and `GIT_AUTHOR_NAME` do
 * not.
 */
const SECRET_SEGMENTS: ReadonlySet<string> = new Set([
  "TOKEN",
  "TOKENS",
  "SECRET",
  "SECRETS",
  "PASSWORD",
  "PASSWORDS",
  "PASSWD",
  "PASS",
  "PASSPHRASE",
  "PWD",
  "PW",
  "KEY",
  "KEYS",
  "APIKEY",
  "CREDENTIAL",
  "CREDENTIALS",
  "CRED",
  "CREDS",
  "PRIVATE",
  "AUTH",
  "OAUTH",
  "DSN",
  "WEBHOOK",
  "WEBHOOKS",
  "PAT",
  "COOKIE",
  "COOKIES",
  "SESSION",
  "JWT",
  "BEARER",
  "OTP",
  "TOTP",
]);

/**
 * Words long and specific enough to count anywhere in a name, also inside a
 * segment: `PGPASSWORD`, `MYSECRET`, `SLACKWEBHOOK`. (`TOKEN` is not here:
 * `TOKENIZERS_PARALLELISM` is not a secret. A segment that *ends* in TOKEN,
 * like `GHTOKEN`, is: see `nameLooksSecret`.)
 */
const SECRET_SUBSTRINGS: readonly string[] = [
  "SECRET",
  "PASSWORD",
  "PASSWD",
  "PASSPHRASE",
  "CREDENTIAL",
  "WEBHOOK",
  "APIKEY",
  "ACCESSKEY",
  "PRIVATEKEY",
  "COOKIE",
];

/** Sockets and caches through which a process acts with the user's keys. */
const AGENT_NAMES: ReadonlySet<string> = new Set([
  "SSH_AUTH_SOCK",
  "SSH_AGENT_PID",
  "GPG_AGENT_INFO",
  "GNOME_KEYRING_CONTROL",
  "KRB5CCNAME",
]);

/**
 * Values that are credentials whatever the variable is called. Kept to
 * formats with few false positives: a URL whose user info has a password
 * (`postgres://u:pw@h`, `redis://:pw@h`, `http://u:pw@proxy`), a connection
 * string with a password or account key, a PEM private key, and token
 * prefixes of GitHub, GitLab, Slack, OpenAI/Anthropic, AWS and npm, and
 * Slack and Discord webhook URLs.
 */
const SECRET_VALUES: readonly RegExp[] = [
  /[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:[^\s/?#@]+@/i,
  /(?:^|;)\s*(?:password|pwd|accountkey|sharedaccesskey)\s*=/i,
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/,
  /(?:^|[^A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/,
  /(?:^|[^A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}/,
  /(?:^|[^A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/,
  /(?:^|[^A-Za-z0-9])sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/,
  /(?:^|[^A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?:[^0-9A-Z]|$)/,
  /(?:^|[^A-Za-z0-9])npm_[A-Za-z0-9]{36}/,
  /hooks\.slack\.com\/services\//,
  /discord(?:app)?\.com\/api\/webhooks\//,
];

/** The upper-cased words of a name: split on non-letters and at camelCase humps. */
export function nameSegments(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .split(/[^A-Za-z]+/)
    .filter((segment) => segment.length > 0)
    .map((segment) => segment.toUpperCase());
}

export function nameLooksSecret(name: string): boolean {
  if (KEPT_NAMES.has(name)) return false;
  const segments = nameSegments(name);
  if (segments.some((s) => SECRET_SEGMENTS.has(s) || s.endsWith("TOKEN"))) return true;
  const upper = name.toUpperCase();
  return SECRET_SUBSTRINGS.some((word) => upper.includes(word));
}

function valueLooksSecret(value: string): boolean {
  return SECRET_VALUES.some((pattern) => pattern.test(value));
}

/** Why `name=value` would be removed, or undefined when it is kept. */
export function secretReason(name: string, value: string): SecretReason | undefined {
  if (KEPT_NAMES.has(name)) return undefined;
  if (AGENT_NAMES.has(name)) return "agent-socket";
  if (nameLooksSecret(name)) return "name";
  if (valueLooksSecret(value)) return "value";
  return undefined;
}

/**
 * `secretReason` of the variables seen last, by name. Every hook run scrubs
 * the same parent environment again; the name and value rules (a dozen
 * regular expressions per variable) were most of a hook run's own cost.
 * Bounded, and checked against the value, so it is only ever a shortcut.
 */
const lastReasons = new Map<string, { value: string; reason: SecretReason | undefined }>();
const REMEMBERED_NAMES = 4096;

function rememberedReason(name: string, value: string): SecretReason | undefined {
  const known = lastReasons.get(name);
  if (known !== undefined && known.value === value) return known.reason;
  const reason = secretReason(name, value);
  if (lastReasons.size >= REMEMBERED_NAMES) lastReasons.clear();
  lastReasons.set(name, { value, reason });
  return reason;
}

export interface ScrubResult {
  env: Record<string, string>;
  /** In the parent's order; the values are never kept. */
  removed: RemovedVariable[];
}

/**
 * The environment without secrets, except the names in `allowed` (exact,
 * case-sensitive names, as the OS compares them): those pass whatever the
 * reason they would have been removed.
 */
export function scrubEnvironment(
  parentEnv: Readonly<Record<string, string | undefined>>,
  allowed: readonly string[] = [],
): ScrubResult {
  const keep = new Set(allowed);
  const env: Record<string, string> = {};
  const removed: RemovedVariable[] = [];
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value === undefined) continue;
    const reason = keep.has(name) ? undefined : rememberedReason(name, value);
    if (reason) removed.push({ name, reason });
    else env[name] = value;
  }
  return { env, removed };
}

/** `scrubEnvironment(...).env`. */
export function withoutSecrets(
  parentEnv: Readonly<Record<string, string | undefined>>,
  allowed: readonly string[] = [],
): Record<string, string> {
  return scrubEnvironment(parentEnv, allowed).env;
}
