/**
 * Skeletons written by `acai hooks init --mode persistent` (hooks.md §6.4):
 * the same hook as init-templates.ts's, as one process per session that
 * answers a JSON request per line, in each language.
 */
import { headerComment, inline, metadataObject, type TemplateArgs } from "./init-templates.js";

function metadataJson(args: TemplateArgs, indent: string): string {
  const rows = Object.entries({ ...metadataObject(args), mode: "persistent" }).map(
    ([key, value]) => `${indent}  ${JSON.stringify(key)}: ${inline(value)}`,
  );
  return `{\n${rows.join(",\n")}\n${indent}}`;
}

function header(args: TemplateArgs, comment: string): string {
  return headerComment(args, comment, {
    kind: "a persistent acai hook",
    protocol: [
      'acai runs it with HOOK_ACTION=describe for its metadata ("mode": "persistent"), then',
      "starts it ONCE per session with HOOK_ACTION=serve (at the first matching event):",
      '  stdin:  one request per line, the event JSON plus an "id": {"id":7,"event":"...",...}',
      '  stdout: one answer per line, a JSON answer plus the same "id": {"id":7,"action":"block","reason":"..."}',
      '          ({"id":7} alone = continue; {"id":7,"error":"..."} = this request failed).',
      "Requests may overlap (answer each id exactly once, in any order). Print nothing else on",
      "stdout (use stderr for logs): any other line ends the process. A request past timeout_ms,",
      'or a crash, fails (the "failure" policy decides) and acai restarts the process.',
      "Exit when stdin ends (the session is over).",
    ],
    fieldsIn: "Requests",
    reference: "Reference: docs/hooks.md (Persistent hooks).",
  });
}

function bash(args: TemplateArgs): string {
  return `#!/usr/bin/env bash
${header(args, "#")}
set -u

if [[ "\${HOOK_ACTION:-serve}" == "describe" ]]; then
  cat <<'JSON'
${metadataJson(args, "")}
JSON
  exit 0
fi

count=0
while IFS= read -r request; do
  # acai writes the id first: {"id":7,...}. (With jq: id=$(jq -r .id <<<"$request").)
  [[ "$request" =~ ^\\{\\"id\\":([0-9]+) ]] || continue
  id="\${BASH_REMATCH[1]}"
  count=$((count + 1))
  # Examples (uncomment and adapt):
  #   block:   printf '{"id":%s,"action":"block","reason":"why this is refused"}\\n' "$id"; continue
  #   context: printf '{"id":%s,"context":"text for the model"}\\n' "$id"; continue
  printf '{"id":%s,"action":"continue","log":"${args.name} served request %s (pid %s)"}\\n' "$id" "$count" "$$"
done
`;
}

function python(args: TemplateArgs): string {
  return `#!/usr/bin/env python3
${header(args, "#")}
import json
import os
import sys

METADATA = ${metadataJson(args, "")}

if os.environ.get("HOOK_ACTION") == "describe":
    print(json.dumps(METADATA))
    sys.exit(0)

count = 0
for line in sys.stdin:
    request = json.loads(line)
    count += 1
    answer = {"action": "continue", "log": f"${args.name} served request {count} (pid {os.getpid()})"}
    # Examples (uncomment and adapt):
    #   block:   answer = {"action": "block", "reason": "why this is refused"}
    #   context: answer = {"context": "text for the model"}
    print(json.dumps({"id": request["id"], **answer}), flush=True)
`;
}

function node(args: TemplateArgs): string {
  return `#!/usr/bin/env node
${header(args, "//")}
import { createInterface } from "node:readline";

const METADATA = ${metadataJson(args, "")};

if (process.env.HOOK_ACTION === "describe") {
  console.log(JSON.stringify(METADATA));
  process.exit(0);
}

let count = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const { id, ...event } = JSON.parse(line);
  count += 1;
  let answer = { action: "continue", log: \`${args.name} served request \${count} (pid \${process.pid}) for \${event.event}\` };
  // Examples (uncomment and adapt):
  //   block:   answer = { action: "block", reason: "why this is refused" };
  //   context: answer = { context: "text for the model" };
  process.stdout.write(\`\${JSON.stringify({ id, ...answer })}\\n\`);
}
`;
}

function typescript(args: TemplateArgs): string {
  const meta = { ...metadataObject(args), mode: "persistent" };
  const literal = Object.entries(meta)
    .map(([key, value]) => `    ${key}: ${inline(value).replace(/"([a-z_]+)": /g, "$1: ")},`)
    .join("\n");
  return `#!/usr/bin/env node
${header(args, "//")}
//
// Written with the typed helper: with mode "persistent" it reads the requests, calls
// your handler for each (they may overlap: keep per-request state local) and writes
// the answers with their ids; a handler that throws fails that request only.
import { defineHook } from ${JSON.stringify(args.sdkImport)};

let count = 0;

defineHook(
  {
${literal}
  },
  (event) => {
    count += 1;
    // Examples (uncomment and adapt):
    //   block:   return { action: "block", reason: "why this is refused" };
    //   context: return { context: "text for the model" };
    return { action: "continue", log: \`${args.name} served request \${count} (pid \${process.pid}) for \${event.event}\` };
  },
);
`;
}

export function renderPersistentSkeleton(args: TemplateArgs): string {
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
