/**
 * The parts of a trust review beyond the list of hooks: what changed since the
 * last trust, what the project's settings would change (above all a model or
 * server the conversation and the API key would go to), and why a set cannot
 * be trusted at all (the secrets each hook asks for are in its list entry). Every piece of project text
 * goes through `inertText`. Used by the `-p` refusal, `acai hooks trust` and
 * the REPL's trust screen, so all three tell the same story.
 */
import { mcpJsonReviewLines } from "../mcp/config.js";
import type { ProjectChanges } from "../project/changes.js";
import { instructionReviewLines } from "../project/instructions.js";
import type { TrustedLink } from "../project/links.js";
import { agentReviewLines } from "../subagents/files.js";
import { inertText } from "../terminal/inert-text.js";
import type { ProjectReview, ProjectSettingsSummary } from "./types.js";

const MAX_LISTED_CHANGES = 20;

/** Lines (no trailing newline, no indentation) describing the review beyond the hook list. */
export function reviewLines(review: ProjectReview): string[] {
  return [
    `Project root: ${inertText(review.root)}`,
    ...changeLines(review.changes),
    ...review.settings.flatMap(settingsLines),
    ...mcpJsonReviewLines(review.root).map(inertText),
    ...(review.mcpNameClashes ?? []).map(inertText),
    ...instructionReviewLines(review.root).map(inertText),
    ...agentReviewLines(review.root).map(inertText),
    ...linkLines(review.links ?? []),
    ...(review.incomplete !== undefined
      ? [`Cannot be trusted: ${inertText(review.incomplete)}.`]
      : []),
  ];
}

function changeLines(changes: ProjectChanges): string[] {
  switch (changes.kind) {
    case "first-review":
      return ["Not trusted before in this folder."];
    case "unknown":
      return ["Changed since you trusted it (what changed is unknown: trusted by an older acai)."];
    case "changed": {
      const lines = ["Changed since you last trusted it:"];
      const listed = [
        ...changes.added.map((key) => `  added    ${inertText(key)}`),
        ...changes.edited.map((key) => `  edited   ${inertText(key)}`),
        ...changes.removed.map((key) => `  removed  ${inertText(key)}`),
      ];
      lines.push(...listed.slice(0, MAX_LISTED_CHANGES));
      if (listed.length > MAX_LISTED_CHANGES) {
        lines.push(`  … and ${listed.length - MAX_LISTED_CHANGES} more`);
      }
      if (listed.length === 0) lines.push("  (nothing acai can name)");
      return lines;
    }
    default:
      return changes satisfies never;
  }
}

/**
 * Every link in the trusted set and where it leads; one that leads out of
 * the project is flagged loudly (an instruction file that does is also not
 * sent to the model: project/instructions.ts).
 */
function linkLines(links: readonly TrustedLink[]): string[] {
  const lines = links.map((link) => {
    const key = inertText(link.key);
    const target = inertText(link.target);
    if (link.outside) {
      return `WARNING: ${key} is a link to ${target}, OUTSIDE the project${link.dangling ? " (it does not exist yet)" : ""}: trusting the project trusts that file`;
    }
    return `${key} is a link to ${target}${link.dangling ? " (it does not exist yet)" : ""}`;
  });
  if (lines.length <= MAX_LISTED_CHANGES) return lines;
  const outsideFirst = [...lines].sort(
    (a, b) => Number(b.startsWith("WARNING")) - Number(a.startsWith("WARNING")),
  );
  return [
    ...outsideFirst.slice(0, MAX_LISTED_CHANGES),
    `… and ${lines.length - MAX_LISTED_CHANGES} more links`,
  ];
}

function settingsLines(summary: ProjectSettingsSummary): string[] {
  const file = inertText(summary.file);
  const lines: string[] = [];
  if (summary.baseUrl !== undefined) {
    lines.push(
      `${file} sends the conversation and your API key to ${inertText(summary.baseUrl)} (baseUrl)`,
    );
  }
  if (summary.model !== undefined) {
    const replay = summary.model.startsWith("replay:")
      ? " — a replay file whose scripted tool calls run"
      : "";
    lines.push(`${file} sets the model to ${inertText(summary.model)}${replay}`);
  }
  if (summary.other.length > 0) {
    lines.push(`${file} sets ${summary.other.map(inertText).join(", ")}`);
  }
  return lines;
}
