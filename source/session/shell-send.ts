/**
 * `acai send` from the shell, gated as an agent's message is: the
 * `before_message_send` hooks of the user and of the project judge it first
 * (a rewrite changes what goes, a cancel keeps it unsent). No session runs:
 * the project is assessed and its trust decided as a session's is (an
 * untrusted project's hooks do not run, and a note says so), the hook
 * registry is loaded with its plugins, and the hooks run through the real
 * interceptor, in the OS sandbox a session would give them, around a run
 * that only waits for the verdict. Hooks that need the model or MCP servers
 * (`prompt`, `agent`, `mcp_tool`) cannot run here: they fail as their hook says.
 */
import type { AgentEvent } from "../agent/events.js";
import { RAISES } from "../agent/raises.js";
import type { Verdict } from "../agent/verdicts.js";
import type { InterceptedEvent } from "../hooks/run/activity.js";
import { createHttpHookClient } from "../hooks/run/handlers/http-client.js";
import { createHookInterceptor, type HookInterceptor } from "../hooks/run/interceptor.js";
import { RelayContextTracker } from "../hooks/run/plugins/relay-context.js";
import { createSessionPlugins } from "../hooks/run/plugins/session.js";
import type { SendVerdict } from "../hooks/run/send-gate.js";
import { inertText } from "../terminal/inert-text.js";
import { UntrustedProjectHooksError } from "./errors.js";
import { layGround, type SessionGround } from "./ground.js";
import { pluginRelay } from "./relay-hooks.js";
import { loadGroundHookRegistry } from "./services.js";
import { sessionEnv } from "./settings-env.js";

export interface ShellSendOptions {
  cwd: string;
  env: Readonly<Record<string, string>>;
  homeDir: string;
  /** The message as typed: `from` (`--from`), `to` (a name or `*`), `content`. */
  message: { from: string; to: string; content: string };
  signal?: AbortSignal;
}

export interface ShellSendGate {
  verdict: SendVerdict;
  /** What the user should read: a project left out, hook warnings. */
  notes: string[];
}

/** The verdict of the before_message_send hooks on a message typed in the shell. */
export async function gateShellMessage(options: ShellSendOptions): Promise<ShellSendGate> {
  const notes: string[] = [];
  const ground = await groundOf(options, notes);
  try {
    return await gateOn(ground, options, notes);
  } finally {
    ground.sandbox.sandbox.close();
  }
}

/** A session's ground, the project's hooks left out (and said) when it is not trusted. */
async function groundOf(options: ShellSendOptions, notes: string[]): Promise<SessionGround> {
  const base = { cwd: options.cwd, env: options.env, homeDir: options.homeDir };
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  try {
    return await layGround({ ...base, ...signal, flags: { projectHooks: "require-trust" } });
  } catch (error) {
    if (!(error instanceof UntrustedProjectHooksError)) throw error;
    notes.push(
      `this project's hooks are not trusted, so its before_message_send hooks did not judge this message (acai hooks trust, to trust them)`,
    );
    return layGround({ ...base, ...signal, flags: { projectHooks: "off" } });
  }
}

async function gateOn(
  ground: SessionGround,
  options: ShellSendOptions,
  notes: string[],
): Promise<ShellSendGate> {
  const { project, projectDir, includeProject, sandbox } = ground;
  const { env } = sessionEnv(options.env, project.loaded, includeProject);
  const plugins = createSessionPlugins({
    relay: pluginRelay(new RelayContextTracker(), undefined),
    plugins: project.scan.plugins,
    included: (scope) => scope === "user" || includeProject,
    env,
    projectDir,
  });
  try {
    const registry = await loadGroundHookRegistry(ground, env, plugins);
    const http = createHttpHookClient();
    const interceptor = createHookInterceptor({
      hooks: registry.hooks,
      fingerprints: registry.fingerprints,
      runner: sandbox.toolRunner,
      launchFor: (hook) => sandbox.launchFor(hook),
      env,
      projectDir,
      acaiHome: project.paths.home,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      assumeYes: false,
      agentName: options.message.from,
      sessionEndBudgetMs: ground.settings.sessionEndBudgetMs,
      ...(plugins === undefined ? {} : { plugins, lateHooks: registry.late }),
      handlers: { http },
    });
    try {
      return await gateOnce(interceptor, options.message, notes);
    } finally {
      http.close();
    }
  } finally {
    await plugins?.close();
  }
}

/**
 * Asks the gate within a run that only waits for the verdict (the gate needs
 * a run going on: its hooks' activity, audit and abort are a run's).
 */
async function gateOnce(
  interceptor: HookInterceptor,
  message: ShellSendOptions["message"],
  notes: string[],
): Promise<ShellSendGate> {
  let release = (): void => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  /** The run: no agent event, only the wait for the verdict. */
  async function* waiting(): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
    await held;
    yield* [];
  }
  const events = interceptor(waiting());
  // The first step starts the run: it is going on from here, and the gate runs in it.
  const first = events.next();
  const shown = (async () => {
    for (let step = await first; !step.done; step = await events.next()) noteOf(step.value, notes);
  })();
  try {
    const verdict = await interceptor.gate({ type: RAISES.before_message_send, message });
    return { verdict, notes };
  } finally {
    release();
    await shown;
  }
}

/** A hook's warning, as a note for the user (inert: it may carry a hook's text). */
function noteOf(event: InterceptedEvent, notes: string[]): void {
  if (event.type === "hook_warning" || event.type === "warning")
    notes.push(inertText(event.message));
}
