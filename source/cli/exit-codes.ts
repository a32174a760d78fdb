/** acai's documented exit codes (README, `acai --help`, docs/cli.md). */
export const EXIT = {
  ok: 0,
  /** Provider, model or runtime error (401, refused connection, missing key, ...). */
  error: 1,
  /** Bad flags, no prompt, a bad settings file or a bad OPENAI_BASE_URL. */
  usage: 2,
  /** A hook blocked or stopped the run (session_start, user_prompt, model gates, stop action, stop-gate limit). */
  hookBlocked: 3,
  /** Project hooks are not trusted; nothing was run. */
  untrustedHooks: 4,
  /** A before_tool hook deferred a tool call: `acai -p --resume ID` asks its hooks again. */
  deferred: 5,
  /** SIGHUP (the terminal went away): handled like SIGTERM, with the shell's 128+1. */
  sighup: 129,
  sigint: 130,
  sigterm: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `Exit codes:
  0    the run finished (also when --max-steps was reached; see stop_reason)
  1    provider, model or runtime error
  2    bad flags, no prompt, a bad settings file or OPENAI_BASE_URL
  3    a hook blocked or stopped the run
  4    an untrusted project (hooks, tools, settings): nothing was run
  5    a before_tool hook deferred a tool call (stop_reason "deferred"): acai -p --resume ID goes on
  129  the terminal went away (SIGHUP; handled like SIGTERM)
  130  interrupted (SIGINT)
  143  terminated (SIGTERM)`;
