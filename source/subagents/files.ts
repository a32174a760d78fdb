/**
 * Agent files (Claude Code's format): `<dir>/*.md` with YAML front matter
 * `name`, `description`, `tools` (comma-separated or a list), `model`; the
 * body is the system prompt. Project files are project content, possibly
 * hostile: they are read only once the project is trusted (the caller decides),
 * bounded in count and size, and their front matter depth-limited.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { readFrontmatter } from "../config/frontmatter.js";
import { readRegularFileSync } from "../config/read-regular-file.js";
import type { SubagentDefinition } from "../tools/builtin/task-types.js";

/** Files read per folder, at most (sorted by name; the rest are left out with a warning). */
export const MAX_AGENT_FILES = 64;
/** An agent file's size cap: a system prompt, not a book. */
const MAX_AGENT_FILE_BYTES = 256 * 1024;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const FrontMatter = z.lazy(() =>
  z.looseObject({
    name: z.string().regex(NAME, "letters, digits, '-', '_' or '.', at most 64"),
    description: z.string().min(1).max(4000),
    tools: z.union([z.string().max(4000), z.array(z.string().max(200)).max(200)]).optional(),
    model: z.string().min(1).max(200).optional(),
  }),
);

/** `<project>/.acai/agents/`: the project's subagent types (part of the trust set). */
export function projectAgentsDir(projectDir: string): string {
  return path.join(projectDir, ".acai", "agents");
}

/** Agent files named in a trust review, at most (the rest are counted). */
const MAX_REVIEWED_AGENT_FILES = 10;

/** The trust review's lines for the project's agent files: what they are and that they steer subagents. */
export function agentReviewLines(projectDir: string): string[] {
  const files = agentFilesIn(projectAgentsDir(projectDir));
  if (files.length === 0) return [];
  const names = files.slice(0, MAX_REVIEWED_AGENT_FILES).map((f) => path.basename(f));
  const more = files.length > names.length ? ` and ${files.length - names.length} more` : "";
  return [
    `.acai/agents/ defines subagent types (their system prompts, tools and models): ${names.join(", ")}${more}`,
  ];
}

export interface AgentDir {
  dir: string;
  scope: "user" | "project";
}

export interface LoadedAgents {
  definitions: SubagentDefinition[];
  warnings: string[];
}

/** The agent files of `dirs`, in order: a later folder's type replaces an earlier one of the same name. */
export async function loadAgentFiles(dirs: readonly AgentDir[]): Promise<LoadedAgents> {
  const byName = new Map<string, SubagentDefinition>();
  const warnings: string[] = [];
  for (const { dir, scope } of dirs) {
    const files = agentFilesIn(dir);
    if (files.length > MAX_AGENT_FILES) {
      warnings.push(
        `${dir}: more than ${MAX_AGENT_FILES} agent files; only the first ${MAX_AGENT_FILES} (by name) are loaded`,
      );
    }
    for (const file of files.slice(0, MAX_AGENT_FILES)) {
      const parsed = await readAgentFile(file, scope);
      if (parsed.ok) byName.set(parsed.definition.name, parsed.definition);
      else warnings.push(`agent file ${file} is not loaded: ${parsed.reason}`);
    }
  }
  return { definitions: [...byName.values()], warnings };
}

/** `*.md` directly in `dir`, by name; none when it does not exist. */
export function agentFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.name.endsWith(".md") && !entry.isDirectory())
      .map((entry) => path.join(dir, entry.name))
      .sort();
  } catch {
    return [];
  }
}

type AgentFileResult = { ok: true; definition: SubagentDefinition } | { ok: false; reason: string };

export async function readAgentFile(
  file: string,
  scope: "user" | "project",
): Promise<AgentFileResult> {
  const read = readRegularFileSync(file, MAX_AGENT_FILE_BYTES);
  if (!read.ok)
    return { ok: false, reason: read.problem === "missing" ? "it is gone" : read.reason };
  const text = read.data.toString("utf8");
  const front = await readFrontmatter(text);
  if (!front.ok) return { ok: false, reason: front.reason.replace("HOOK.md", "the agent file") };
  const parsed = FrontMatter.safeParse(front.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `front matter ${issue?.path.join(".") || "field"}: ${issue?.message}`,
    };
  }
  const { name, description, tools, model } = parsed.data;
  const prompt = bodyOf(text);
  return {
    ok: true,
    definition: {
      name,
      description,
      ...(tools === undefined ? {} : { tools: toolList(tools) }),
      ...(model === undefined || model === "inherit" ? {} : { model }),
      ...(prompt === "" ? {} : { prompt }),
      scope,
      file,
    },
  };
}

function toolList(tools: string | readonly string[]): string[] {
  const names = typeof tools === "string" ? tools.split(",") : tools;
  return names.map((name) => name.trim()).filter((name) => name !== "");
}

/** The text after the front matter. */
function bodyOf(text: string): string {
  const match = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return (match ? text.slice(match[0].length) : text).trim();
}
