/**
 * The session's agent: its id and transcript (a new one, or the session picked
 * up again), the environment session_start hooks export, the tools with Task,
 * the system prompt with the instruction files, and the `Agent` itself.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { Agent } from "../agent/agent.js";
import { contextWindowFor } from "../agent/compaction/context-window.js";
import { composeSystemPrompt } from "../agent/system-prompt.js";
import type { AgentOptions } from "../agent/types.js";
import type { PermissionPolicy } from "../permissions/decide.js";
import { defined } from "../shared/defined.js";
import { subagentTaskTool } from "../subagents/run.js";
import type { Tool } from "../tools/types.js";
import type { SessionGround } from "./ground.js";
import { type LoadedInstructions, loadInstructions, userInstructionFile } from "./instructions.js";
import { sessionPermissionPolicy } from "./permission-policy.js";
import type { SessionServices } from "./services.js";
import { createSessionEnvFiles, createShellEnvReader, sessionEnvDir } from "./shell-env.js";
import type { PrepareSessionOptions } from "./types.js";

export interface SessionAgent {
  agent: Agent;
  sessionId: string;
  transcriptPath: string;
  /** session_start hooks' CLAUDE_ENV_FILE per hook: what they export there, the Bash tool gets. */
  envFiles: Map<string, string>;
  /** Every tool of the session by name (built-in, dynamic, MCP, Task), for hooks' modified inputs. */
  toolsByName: ReadonlyMap<string, Tool>;
  instructions: LoadedInstructions;
  /** The one permission policy of the session's agents (the REPL changes its mode and rules). */
  policy: PermissionPolicy;
}

/** `<ACAI_HOME>/transcripts/<YYYY-MM-DD>-<sessionId>.jsonl` */
export function transcriptPathFor(transcriptsDir: string, sessionId: string, now: Date): string {
  return path.join(transcriptsDir, `${now.toISOString().slice(0, 10)}-${sessionId}.jsonl`);
}

export async function buildSessionAgent(
  ground: SessionGround,
  services: SessionServices,
  options: PrepareSessionOptions,
): Promise<SessionAgent> {
  const { paths } = ground.project;
  const sessionId = ground.resumed?.sessionId ?? randomUUID();
  const transcriptPath =
    ground.resumed?.file ?? transcriptPathFor(paths.transcriptsDir, sessionId, new Date());
  const envFiles = await createSessionEnvFiles(
    sessionEnvDir(paths.home, sessionId),
    services.registry.hooks,
  );
  const ids = { sessionId, transcriptPath };
  const agentOptions = sharedAgentOptions(ground, services, options, ids, envFiles);
  const agentTools = [...services.tools.tools, ...(services.mcp?.tools ?? [])];
  // The Task tool runs subagents with the session's own tools and limits (subagents/run.ts).
  const taskTool = subagentTaskTool({
    ...agentOptions,
    tools: agentTools,
    definitions: services.subagentTypes.definitions,
    resolveModel: services.resolveSubagentModel,
  });
  const tools = [...agentTools, taskTool];
  const userInstructions = userInstructionFile(paths.home);
  const instructions = loadInstructions({
    acaiHome: paths.home,
    projectDir: ground.projectDir,
    includeProject: ground.includeProject,
  });
  const agent = new Agent({
    ...agentOptions,
    tools,
    systemPrompt: systemPromptOf(ground, options, tools, instructions),
    instructionFiles: instructions.sections.map((section) => ({
      path: section.file,
      memoryType: section.file === userInstructions ? "User" : "Project",
    })),
    ...defined(
      "contextWindow",
      contextWindowFor(services.model.modelId, ground.settings.contextWindow),
    ),
    // The conversation of the session picked up again (not the subagents').
    ...(ground.resumed
      ? {
          resume: {
            messages: ground.resumed.messages,
            parentUuid: ground.resumed.lastUuid,
            pending: ground.resumed.pending,
            context: ground.resumed.context,
          },
        }
      : {}),
  });
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  return { agent, ...ids, envFiles, toolsByName, instructions, policy: agentOptions.permissions };
}

/** What the session's agent and its subagents share: model, sandbox, runner, policy, limits. */
function sharedAgentOptions(
  ground: SessionGround,
  services: SessionServices,
  { cwd, env, homeDir, flags, ui }: PrepareSessionOptions,
  ids: { sessionId: string; transcriptPath: string },
  envFiles: Map<string, string>,
): Omit<AgentOptions, "tools"> {
  const { settings, sandbox } = ground;
  const maxSteps = flags.maxSteps ?? settings.maxSteps;
  return {
    model: services.model.model,
    modelId: services.model.modelId,
    sandbox: sandbox.info,
    ...(ui === undefined ? {} : { sessionArgs: { ui, agent: "default" } }),
    cwd,
    env,
    ...(envFiles.size > 0 ? { shellEnv: createShellEnvReader([...envFiles.values()], env) } : {}),
    runner: sandbox.toolRunner,
    permissions: sessionPermissionPolicy({
      permissions: services.permissions,
      acaiHome: ground.project.paths.home,
      homeDir,
      projectDir: ground.projectDir,
      cwd,
      manifest: ground.project.scan.projectManifest.entries,
      shell: services.shell,
      autoAllowSandboxedBash: sandbox.sandbox.autoAllowBash,
    }),
    ...ids,
    ...(maxSteps ? { maxSteps } : {}),
    maxStopBlocks: settings.maxStopBlocks,
    // agent-relay's relay.config `options` (hooks/discover/relay-config.ts).
    ...defined("maxPatterns", services.registry.relay.maxPatterns),
    ...defined("maxPatternFollowUps", services.registry.relay.maxPatternFollowUps),
  };
}

function systemPromptOf(
  ground: SessionGround,
  { cwd, flags }: PrepareSessionOptions,
  tools: Tool[],
  instructions: LoadedInstructions,
): string {
  const { settings } = ground;
  return composeSystemPrompt(
    { cwd, tools },
    {
      instructions: instructions.sections,
      ...defined("replace", flags.systemPrompt ?? settings.systemPrompt),
      ...defined("append", flags.appendSystemPrompt ?? settings.appendSystemPrompt),
    },
  );
}
