/**
 * agent-relay's `relay.config.ts` (docs/relay.md "Coming from agent-relay"):
 * where it is found — `<project>/relay.config.{ts,mts,js,mjs}` (project code:
 * in the trusted set, scan.ts, imported only once the project is trusted) and
 * `$ACAI_HOME/relay.config.{…}` (the user's) — and what its `options`,
 * `capabilities` and `memory` sections mean for the session, checked here
 * (zod). Its `patterns` and `hooks` are registrations, read in the plugin's
 * worker (run/plugins/relay-shape.ts) like a plugin's.
 *
 * Capabilities are grants: a project's config may grant none, and the user's
 * only what acai can give from there (`unlimitedInjection`); asking for
 * another refuses the whole config, with what to do instead — its hooks
 * expect what they asked for, so none of them runs without it.
 */
import path from "node:path";
import { z } from "zod";
import { PARSED_ONCE } from "../../shared/parsed-once.js";
import type { BrokenHook, HookScope } from "../contract/definition.js";
import { formatZodError } from "../contract/schemas/metadata.js";
import { statOrUndefined } from "./sources/files.js";

/** In the order one is chosen when several exist. */
const RELAY_CONFIG_NAMES = [
  "relay.config.ts",
  "relay.config.mts",
  "relay.config.js",
  "relay.config.mjs",
];

/** The relay.config of one folder (the first of RELAY_CONFIG_NAMES that is a file); others are reported. */
export async function findRelayConfig(
  dir: string,
  scope: HookScope,
  broken: BrokenHook[],
): Promise<string | undefined> {
  let chosen: string | undefined;
  for (const name of RELAY_CONFIG_NAMES) {
    const file = path.join(dir, name);
    const stats = await statOrUndefined(file);
    if (stats === undefined || !stats.isFile()) continue;
    if (chosen === undefined) chosen = file;
    else {
      broken.push({
        file,
        scope,
        sourceKind: "plugin",
        reason: `not loaded: ${path.basename(chosen)} beside it is (keep one relay.config)`,
      });
    }
  }
  return chosen;
}

const OptionsSchema = z.lazy(() =>
  z.strictObject({
    /** ms without output before onIdle (agent-relay's default 30,000). */
    idleThreshold: z.int().min(100).max(86_400_000).optional(),
    /** Pattern lines read per message (acai's default 20). */
    maxPatternsPerMessage: z.int().min(0).max(100).optional(),
    /** Model steps run per turn only so the agent reads pattern answers (acai's default 3). */
    maxPatternFollowUps: z.int().min(0).max(20).optional(),
  }),
);

const CapabilitiesSchema = z.lazy(() =>
  z.strictObject({
    allowNetworkInHooks: z.boolean().optional(),
    allowFileReadInHooks: z.boolean().optional(),
    unlimitedInjection: z.boolean().optional(),
  }),
);

const MemorySchema = z.lazy(() =>
  z.strictObject({
    backend: z.string().optional(),
    autoSave: z.boolean().optional(),
    promptOnEnd: z.boolean().optional(),
    config: z.unknown().optional(),
  }),
);

const RelayConfigSettingsSchema = z.lazy(() =>
  z.strictObject({
    options: OptionsSchema.optional(),
    capabilities: CapabilitiesSchema.optional(),
    memory: MemorySchema.optional(),
  }),
);

/** What the relay.configs of a session change (the project's over the user's). */
export interface RelayConfigEffect {
  idleMs?: number;
  maxPatterns?: number;
  maxPatternFollowUps?: number;
  unlimitedInjection?: boolean;
}

/** One relay.config's settings: what they change, and problems that do not stop it loading. */
export type RelayConfigVerdict =
  | { ok: true; effect: RelayConfigEffect; problems: string[] }
  | { ok: false; reason: string };

const CAPABILITY_REFUSALS: Readonly<Record<string, string>> = {
  allowNetworkInHooks:
    'acai sets up the hooks\' OS sandbox before it reads relay.config, so it cannot grant this from here: set "capabilities": {"allowNetworkInHooks": true} in ~/.acai/settings.json instead (docs/security.md §8)',
  allowFileReadInHooks:
    "acai's sandbox has no such grant: hooks read what the sandbox lets every process read (docs/security.md §8); remove it",
};

/** Checks one relay.config's `options`, `capabilities` and `memory`. */
export function relayConfigVerdict(raw: unknown, scope: HookScope): RelayConfigVerdict {
  const parsed = RelayConfigSettingsSchema.safeParse(raw ?? {}, PARSED_ONCE);
  if (!parsed.success) return { ok: false, reason: formatZodError(parsed.error) };
  const { options = {}, capabilities = {}, memory = {} } = parsed.data;
  for (const [name, granted] of Object.entries(capabilities)) {
    if (granted !== true) continue;
    if (scope === "project") {
      return {
        ok: false,
        reason: `capabilities.${name}: a project's relay.config cannot grant capabilities (only yours, $ACAI_HOME/relay.config.ts, can); remove it`,
      };
    }
    const refusal = CAPABILITY_REFUSALS[name];
    if (refusal !== undefined) return { ok: false, reason: `capabilities.${name}: ${refusal}` };
  }
  const effect: RelayConfigEffect = {};
  if (options.idleThreshold !== undefined) effect.idleMs = options.idleThreshold;
  if (options.maxPatternsPerMessage !== undefined)
    effect.maxPatterns = options.maxPatternsPerMessage;
  if (options.maxPatternFollowUps !== undefined) {
    effect.maxPatternFollowUps = options.maxPatternFollowUps;
  }
  if (capabilities.unlimitedInjection === true) effect.unlimitedInjection = true;
  return { ok: true, effect, problems: memoryProblems(memory) };
}

function memoryProblems(memory: z.infer<typeof MemorySchema>): string[] {
  const problems: string[] = [];
  const backend = memory.backend;
  if (backend !== undefined && backend !== "builtin" && backend !== "sqlite") {
    problems.push(
      `memory.backend "${backend}": acai's memory is its own SQLite store (docs/memory.md); for another store set "memory": {"enabled": false} in settings and handle @memory: with a pattern (still using the built-in)`,
    );
  }
  if (memory.autoSave === true) {
    problems.push(
      "memory.autoSave: acai never saves on its own; the agent saves with @memory:save (ignored)",
    );
  }
  if (memory.promptOnEnd === true) {
    problems.push(
      "memory.promptOnEnd: not done by acai; use hooks.onSessionEnd returning { inject: … } (ignored)",
    );
  }
  return problems;
}

/** The effects of a session's relay.configs, later ones (the project's) over earlier ones. */
export function mergeRelayEffects(effects: readonly RelayConfigEffect[]): RelayConfigEffect {
  return Object.assign({}, ...effects) as RelayConfigEffect;
}
