/**
 * Skeletons written by `acai hooks init`: a working hook per language that
 * answers describe and execute, does nothing harmful (continue, with a log
 * note), and shows in comments how to block, modify or add context for the
 * chosen event.
 */
import {
  CLAUDE_EVENT_NAMES,
  HOOK_EVENTS,
  type HookEventName,
} from "../../hooks/contract/definition.js";
import type { EventHelp } from "../../hooks/contract/events/row.js";
import { eventRow } from "../../hooks/contract/events/table.js";

export const INIT_LANGS = ["bash", "python", "node", "ts"] as const;
export type InitLang = (typeof INIT_LANGS)[number];

export const INIT_EXTENSIONS: Record<InitLang, string> = {
  bash: ".sh",
  python: ".py",
  node: ".mjs",
  ts: ".mts",
};

/** What each event's module says about it for a new hook's comments (its `help`). */
export const EVENT_HELP: Readonly<Record<HookEventName, EventHelp>> = Object.fromEntries(
  HOOK_EVENTS.map((event) => [event, eventRow(event).help]),
) as Record<HookEventName, EventHelp>;

export interface TemplateArgs {
  name: string;
  event: HookEventName;
  lang: InitLang;
  /** Module specifier the TypeScript skeleton imports the helper from. */
  sdkImport: string;
}

export function metadataObject(args: TemplateArgs): Record<string, unknown> {
  const help = EVENT_HELP[args.event];
  return {
    name: args.name,
    description: `TODO: what ${args.name} does`,
    events: [args.event],
    ...(help.matcher ? { matcher: help.matcher } : {}),
    priority: 100,
    timeout_ms: 10000,
    failure: "open",
  };
}

/** One key per line, values inline: `{\n  "name": "x",\n  "events": ["before_tool"]\n}`. */
function metadata(args: TemplateArgs, indent = ""): string {
  const rows = Object.entries(metadataObject(args)).map(
    ([key, value]) => `${indent}  ${JSON.stringify(key)}: ${inline(value)}`,
  );
  return `{\n${rows.join(",\n")}\n${indent}}`;
}

/** The same as a TypeScript object literal (unquoted keys). */
function metadataLiteral(args: TemplateArgs, indent = ""): string {
  const rows = Object.entries(metadataObject(args)).map(
    ([key, value]) => `${indent}  ${key}: ${inline(value).replace(/"([a-z_]+)": /g, "$1: ")},`,
  );
  return `{\n${rows.join("\n")}\n${indent}}`;
}

export function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`);
    return `{ ${entries.join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** What differs between the header comments of a spawned and a persistent skeleton. */
export interface HeaderParts {
  /** "an acai hook", "a persistent acai hook". */
  kind: string;
  /** How acai runs the file, line by line. */
  protocol: string[];
  /** What the event's fields arrive in: "stdin", "Requests". */
  fieldsIn: string;
  reference: string;
}

/** The header comment of a generated hook: what it is, how acai runs it, the event's fields and powers, how to try it. */
export function headerComment(args: TemplateArgs, comment: string, parts: HeaderParts): string {
  const help = EVENT_HELP[args.event];
  const lines = [
    `${args.name} — ${parts.kind} on ${args.event} (Claude Code: ${CLAUDE_EVENT_NAMES[args.event]}).`,
    "",
    ...parts.protocol,
    "",
    `${parts.fieldsIn} for ${args.event}: event, hook_event_name, session_id, transcript_path, cwd, timestamp,`,
    `  ${help.fields}`,
    `On ${args.event} a hook can: ${help.can}.`,
    "",
    `Try it:  acai hooks test ${args.name} --event ${args.event}`,
    parts.reference,
  ];
  return lines.map((line) => (line ? `${comment} ${line}` : comment)).join("\n");
}

function header(args: TemplateArgs, comment: string): string {
  return headerComment(args, comment, {
    kind: "an acai hook",
    protocol: [
      "acai runs this file twice over its life:",
      "  HOOK_ACTION=describe  print the metadata JSON below (cached until the file changes);",
      "  HOOK_ACTION=execute   the event arrives as JSON on stdin; answer with an exit code",
      "                        and, optionally, a JSON object on stdout.",
      "Exit 0 = go on (stdout may hold a JSON answer); exit 2 = block (stderr is the reason);",
      'anything else = the hook failed (its "failure" policy decides: "open" goes on, "closed" blocks).',
    ],
    fieldsIn: "stdin",
    reference: "Reference: docs/hooks.md; JSON Schemas: schemas/ in the acai package.",
  });
}

type Lang = "bash" | "python" | "node" | "ts";

/** Commented example answers for the event, in the language's own idiom. */
function examples(args: TemplateArgs, lang: Lang, comment: string, pad: string): string {
  const help = EVENT_HELP[args.event];
  const emit = (answer: Record<string, unknown>): string => {
    const json = JSON.stringify(answer);
    switch (lang) {
      case "bash":
        return `printf '%s\\n' '${json}'`;
      case "python":
        return `print(json.dumps(${inline(answer)}))`;
      case "node":
        return `console.log(JSON.stringify(${inline(answer).replace(/"([a-z_]+)": /g, "$1: ")}));`;
      case "ts":
        return `return ${inline(answer).replace(/"([a-z_]+)": /g, "$1: ")};`;
      default:
        return lang satisfies never;
    }
  };
  const block: Record<Lang, string> = {
    bash: 'echo "why this is refused" >&2; exit 2',
    python: 'print("why this is refused", file=sys.stderr); sys.exit(2)',
    node: 'process.stderr.write("why this is refused\\n"); process.exit(2);',
    ts: 'return { action: "block", reason: "why this is refused" };',
  };
  const rows: [string, string][] = [
    ["block", block[lang]],
    ["context", emit({ action: "continue", context: "text for the model" })],
  ];
  if (help.change) rows.push([help.change.label, emit(help.change.answer)]);
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return [
    `${pad}${comment} Examples (uncomment and adapt):`,
    ...rows.map(([label, code]) => `${pad}${comment}   ${`${label}:`.padEnd(width)}${code}`),
  ].join("\n");
}

function bash(args: TemplateArgs): string {
  return `#!/usr/bin/env bash
${header(args, "#")}
set -u

if [[ "\${HOOK_ACTION:-execute}" == "describe" ]]; then
  cat <<'JSON'
${metadata(args)}
JSON
  exit 0
fi

payload="$(cat)"

# Reads a top-level string field of the payload (no jq needed; use jq if you have it).
json_field() {
  local re="\\"$1\\"[[:space:]]*:[[:space:]]*\\"(([^\\"\\\\\\\\]|\\\\\\\\.)*)\\""
  [[ "$payload" =~ $re ]] && printf '%s' "\${BASH_REMATCH[1]}"
}

event="$(json_field event)"

${examples(args, "bash", "#", "")}

printf '{"action":"continue","log":"${args.name} saw %s"}\\n' "$event"
exit 0
`;
}

function python(args: TemplateArgs): string {
  return `#!/usr/bin/env python3
${header(args, "#")}
import json
import os
import sys

METADATA = ${metadata(args)}

if os.environ.get("HOOK_ACTION", "execute") == "describe":
    print(json.dumps(METADATA))
    sys.exit(0)

event = json.load(sys.stdin)

${examples(args, "python", "#", "")}

print(json.dumps({"action": "continue", "log": f"${args.name} saw {event['event']}"}))
`;
}

function node(args: TemplateArgs): string {
  return `#!/usr/bin/env node
${header(args, "//")}

const METADATA = ${metadata(args)};

if ((process.env.HOOK_ACTION ?? "execute") === "describe") {
  console.log(JSON.stringify(METADATA));
  process.exit(0);
}

let input = "";
for await (const chunk of process.stdin) input += chunk;
const event = JSON.parse(input);

${examples(args, "node", "//", "")}

console.log(JSON.stringify({ action: "continue", log: \`${args.name} saw \${event.event}\` }));
`;
}

function typescript(args: TemplateArgs): string {
  const local = args.sdkImport !== "acai-agent/hooks";
  return `#!/usr/bin/env node
${header(args, "//")}
//
// Written with the typed helper: it implements describe/execute, validates stdin
// and prints the answer you return (return nothing to continue). acai runs it with
// its own Node, whatever \`node\` is on PATH; run by hand (./file.mts) it needs
// Node >= 22.18 (or >= 23.6) first on PATH, as it runs TypeScript directly.
${
  local
    ? `// acai is not a dependency of this project, so the helper is imported from the
// acai that wrote this file. After \`npm install --save-dev acai-agent\` use "acai-agent/hooks".
`
    : ""
}import { defineHook } from ${JSON.stringify(args.sdkImport)};

defineHook(
  ${metadataLiteral(args, "  ")},
  (event) => {
    // \`event\` is typed for ${args.event}.
${examples(args, "ts", "//", "    ")}
    return { action: "continue", log: \`${args.name} saw \${event.event}\` };
  },
);
`;
}

export function renderSkeleton(args: TemplateArgs): string {
  switch (args.lang) {
    case "bash":
      return bash(args);
    case "python":
      return python(args);
    case "node":
      return node(args);
    case "ts":
      return typescript(args);
    default:
      return args.lang satisfies never;
  }
}
