import type { IncomingMessage } from "../agent/event-data.js";
import type { AskUser } from "../hooks/run/activity.js";
import type { ModelPrice } from "../models/pricing.js";
import type { ResumeRequest } from "../session/resume/find.js";
import type {
  PreparedSession,
  ProjectHooksMode,
  ProjectTrustState,
  SessionFlags,
} from "../session/types.js";

/** What `acai` (no `-p`) hands to `startRepl`: the REPL wires the real session from it. */
export interface ReplStartOptions {
  cwd: string;
  env: Readonly<Record<string, string>>;
  homeDir: string;
  flags: SessionFlags;
  initialPrompt?: string;
  /** Loads the session's modules, after the first frame (the CLI's session entry, decision 0073). */
  sessionModules: () => Promise<SessionModules>;
}

/** What the REPL's session runs on, loaded behind its first frame. */
export interface SessionModules {
  prepareSession: typeof import("../session/prepare.js").prepareSession;
  checkProjectTrust: typeof import("../session/trust.js").checkProjectTrust;
  modelPrice: typeof import("../models/pricing.js").modelPrice;
}

/** One submitted prompt. Aborting `signal` ends that turn only. */
export interface TurnInput {
  prompt: string;
  signal?: AbortSignal;
  /** `/compact [instructions]`: compact the conversation (`prompt` holds the instructions). */
  command?: "compact";
  /** A message from another agent: the turn answers it (message_received runs first). */
  message?: IncomingMessage;
}

type ReplNotificationType = "idle_prompt" | "permission_prompt";

export interface ReplNotification {
  message: string;
  notificationType: ReplNotificationType;
}

export interface PrepareForRepl {
  askUser: AskUser;
  projectHooks: ProjectHooksMode;
  /** Set by `/model <spec>`; absent means the CLI's own choice. */
  model?: string;
  /** The session to pick up: `/resume`'s choice; null: none; absent: the CLI's (`-c`, `--resume`). */
  resume?: ResumeRequest | null;
  /** The project set the first session took with `trust-once`: later ones take it only unchanged. */
  projectSetTaken?: string | null;
}

/** Everything the REPL needs, injected so tests can drive it with fakes. */
export interface ReplOptions {
  /** Builds a session (hooks loaded, agent ready). Called again by `/clear` and `/model <spec>`. */
  prepare: (options: PrepareForRepl) => Promise<PreparedSession>;
  /** The project's trust state, or how to find it (run after the first frame is drawn). */
  trust: ProjectTrustState | (() => Promise<ProjectTrustState>);
  /** The price of a prepared session's model, for the cost in the status line; none: no cost shown. */
  pricing?: (session: PreparedSession) => Promise<ModelPrice | undefined> | ModelPrice | undefined;
  /** From the flags: `require-trust` shows the trust screen when the project set is untrusted. */
  projectHooks: ProjectHooksMode;
  acaiHome: string;
  /** Where acai started: `@` completes file names from here until a session runs. */
  cwd?: string;
  /** The user named this agent on the relay (`--name`): its name is shown at once, not at its first message. */
  agentNamed?: boolean;
  /** Where prompt history lives (default `<acaiHome>/repl-history.jsonl`). */
  historyFile?: string;
  /** Submitted as the first turn (piped stdin). */
  initialPrompt?: string;
  /**
   * Replaces `session.notify` for the idle prompt: the REPL calls it when the
   * prompt has been idle for `idleNotifyMs`. (Asks are not notified here: the
   * interceptor fires the `notification` hooks itself on every hook `ask`.)
   */
  notify?: (session: PreparedSession, notification: ReplNotification) => Promise<void> | void;
  /** Default 60 000. */
  idleNotifyMs?: number;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Clock for durations (default Date.now). */
  now?: () => number;
  /** How long to wait for `session_end` hooks after an exit request before giving up (default: the session-end budget plus 5 s, at least 15 s). */
  exitBudgetMs?: number;
}
