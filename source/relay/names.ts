/**
 * Agent names (`--name`): what `@relay:NAME`, `acai send NAME` and
 * `acai agents` use. A name is data from a user, a model or another machine:
 * it is checked before it is stored, sent or shown.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { z } from "zod";

const AGENT_NAME_MAX = 64;
const NAME_PATTERN = /^[A-Za-z0-9._-]+$/;
const AGENT_NAME_RULE = `1–${AGENT_NAME_MAX} characters of A–Z, a–z, 0–9, '.', '_' and '-', not starting with '.' or '-'`;

/** Why `name` is not a valid agent name, or undefined when it is. */
export function agentNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > AGENT_NAME_MAX || !NAME_PATTERN.test(name))
    return `an agent name is ${AGENT_NAME_RULE}`;
  if (name.startsWith(".") || name.startsWith("-")) return `an agent name is ${AGENT_NAME_RULE}`;
  return undefined;
}

export const agentNameSchema = z.lazy(() =>
  z.string().refine((name) => agentNameProblem(name) === undefined, { message: AGENT_NAME_RULE }),
);

/** The default name: the project folder's name (made valid) and a short random id, e.g. `api-3f2a`. */
export function defaultAgentName(projectDir: string, random: () => string = shortId): string {
  const base = path
    .basename(projectDir)
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "")
    .slice(0, AGENT_NAME_MAX - 5);
  return `${base === "" ? "agent" : base}-${random()}`;
}

function shortId(): string {
  return randomBytes(2).toString("hex");
}
