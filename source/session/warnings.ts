/** The warnings a prepared session shows before its first prompt, in the order they arose. */
import path from "node:path";
import type { BrokenHook } from "../hooks/contract/definition.js";
import type { SessionAgent } from "./agent.js";
import type { SessionGround } from "./ground.js";
import type { SessionServices } from "./services.js";
import { projectLeftOut } from "./trust.js";

export function sessionWarnings(
  ground: SessionGround,
  services: SessionServices,
  built: SessionAgent,
  relayWarnings: readonly string[],
): string[] {
  const { project, sandbox, includeProject, resumed } = ground;
  return [
    ...project.loaded.warnings,
    ...sandbox.sandbox.warnings,
    ...projectLeftOut(project, includeProject),
    ...services.permissions.warnings,
    ...services.tools.warnings,
    ...services.subagentTypes.warnings,
    ...services.mcpServers.warnings,
    ...(services.mcp?.warnings ?? []),
    ...services.registry.warnings,
    ...services.registry.broken.map(brokenHookWarning),
    ...built.instructions.warnings,
    ...(resumed?.warnings ?? []),
    ...relayWarnings,
  ];
}

/** "hook NAME (FILE) is not loaded: REASON", without repeating the name the reason may start with. */
export function brokenHookWarning(broken: BrokenHook): string {
  const name = broken.name ?? path.basename(broken.file);
  const reason = broken.reason.startsWith(`${name}: `)
    ? broken.reason.slice(name.length + 2)
    : broken.reason;
  return `hook ${name} (${broken.file}) is not loaded: ${reason}`;
}
