/**
 * The published JSON Schemas (`schemas/*.json`), generated from the zod
 * schemas that acai itself validates with: hook metadata, HOOK.md
 * frontmatter, settings `hooks`, the stdin payload of every event, and the
 * answers of every dialect. `npm run schemas` writes them; a test checks the
 * checked-in files match.
 */
import { z } from "zod";
import { SandboxSettingsSchema } from "../config/sandbox-settings.js";
import { HOOK_EVENTS } from "../hooks/contract/definition.js";
import { acaiAnswerSchema } from "../hooks/contract/dialects/acai.js";
import { agentHooksAnswerSchema } from "../hooks/contract/dialects/agenthooks.js";
import { claudeAnswerSchema } from "../hooks/contract/dialects/claude.js";
import { hookJsonSchemas } from "../hooks/contract/schemas/settings-hooks.js";
import { HookPayloadSchema, PAYLOAD_SCHEMAS } from "./payload-schemas.js";

type JsonSchema = Record<string, unknown>;

function titled(title: string, description: string, schema: JsonSchema): JsonSchema {
  const { $schema, ...rest } = schema;
  return { $schema, title, description, ...rest };
}

function out(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
}

/** File name (under `schemas/`) → JSON Schema. Deterministic: same input, same bytes. */
export function generateSchemas(): Record<string, JsonSchema> {
  const meta = hookJsonSchemas();
  const files: Record<string, JsonSchema> = {
    "hook-metadata.json": titled(
      "acai hook metadata",
      "What an executable hook prints for HOOK_ACTION=describe (docs/hooks.md).",
      meta.executableMetadata,
    ),
    "hook-md-frontmatter.json": titled(
      "acai HOOK.md frontmatter",
      "YAML frontmatter of a HOOK.md hook folder (Agent Hooks spec, plus failure and env).",
      meta.hookMdFrontmatter,
    ),
    "settings-hooks.json": titled(
      "acai settings hooks",
      "The `hooks` section of ~/.acai/settings.json, .acai/settings.json and .acai/settings.local.json (Claude Code's shape; timeouts in seconds).",
      meta.settingsHooks,
    ),
    "settings-sandbox.json": titled(
      "acai settings sandbox",
      "The `sandbox` section of ~/.acai/settings.json and .acai/settings.json (Claude Code's shape; a project only narrows the user's policy). docs/security.md.",
      z.toJSONSchema(SandboxSettingsSchema, { io: "input" }) as JsonSchema,
    ),
    "hook-answer.json": titled(
      "acai hook answer",
      "The JSON a hook may print on stdout (exit 0). All fields optional; unknown fields ignored.",
      z.toJSONSchema(acaiAnswerSchema, { io: "input" }) as JsonSchema,
    ),
    "claude-answer.json": titled(
      "Claude Code hook answer (as acai reads it)",
      "Claude Code's answer fields, normalized by acai to the same decisions.",
      z.toJSONSchema(claudeAnswerSchema, { io: "input" }) as JsonSchema,
    ),
    "agenthooks-answer.json": titled(
      "Agent Hooks answer (as acai reads it)",
      "The Agent Hooks spec's answer fields, normalized by acai to the same decisions.",
      z.toJSONSchema(agentHooksAnswerSchema, { io: "input" }) as JsonSchema,
    ),
    "hook-event.json": titled(
      "acai hook event (stdin)",
      "The JSON an executable or settings hook receives on stdin, any event (discriminated on `event`).",
      out(HookPayloadSchema),
    ),
  };
  for (const event of HOOK_EVENTS) {
    files[`event-${event}.json`] = titled(
      `acai ${event} event (stdin)`,
      `The JSON a hook receives on stdin for ${event}.`,
      out(PAYLOAD_SCHEMAS[event]),
    );
  }
  return files;
}

export function schemaFileText(schema: JsonSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
