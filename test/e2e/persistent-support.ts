/**
 * Shared by the persistent-hooks end-to-end tests: one persistent hook
 * (hooks.md §6.4) in bash, Python and Node, each doing the same: for every
 * request it appends `<pid> <count> <event>` to a log, answers continue; on
 * before_tool of a Bash command containing `crash-now` it exits without answering; on its first
 * request it starts a `setsid` child carrying `marker` in its argv.
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AcaiDirs } from "../support/run-acai.js";

export const LANGS = ["bash", "python", "node"] as const;
export type Lang = (typeof LANGS)[number];

const SDK = fileURLToPath(new URL("../../dist/sdk/hooks.js", import.meta.url));

function metadata(name: string, events: string[]): string {
  return JSON.stringify({ name, events, mode: "persistent", timeout_ms: 10_000 });
}

/** The hook's source in `lang`; `log` is the file it appends to. */
export function persistentHookSource(
  lang: Lang,
  options: { name: string; events: string[]; log: string; marker: string },
): string {
  const { name, events, log, marker } = options;
  const meta = metadata(name, events);
  const escapee = `setsid bash -c 'exec -a ${marker} sleep 300' </dev/null >/dev/null 2>&1 &`;
  switch (lang) {
    case "bash":
      return [
        "#!/usr/bin/env bash",
        `if [ "$HOOK_ACTION" = describe ]; then echo '${meta}'; exit 0; fi`,
        "n=0",
        "while IFS= read -r line; do",
        "  n=$((n+1))",
        `  if [ $n = 1 ]; then ${escapee} fi`,
        '  id=$(jq -r .id <<<"$line")',
        '  event=$(jq -r .event <<<"$line")',
        `  echo "$$ $n $event" >> '${log}'`,
        '  if [ "$event" = before_tool ]; then case "$line" in *crash-now*) exit 3;; esac; fi',
        '  echo "{\\"id\\":$id}"',
        "done",
        "",
      ].join("\n");
    case "python":
      return [
        "#!/usr/bin/env python3",
        "import json, os, subprocess, sys",
        "if os.environ.get('HOOK_ACTION') == 'describe':",
        `    print('${meta}'); sys.exit(0)`,
        "n = 0",
        "for line in sys.stdin:",
        "    n += 1",
        "    if n == 1:",
        `        subprocess.Popen(['bash', '-c', ${JSON.stringify(escapee)}])`,
        "    req = json.loads(line)",
        `    with open(${JSON.stringify(log)}, 'a') as f: f.write(f"{os.getpid()} {n} {req['event']}\\n")`,
        "    if req['event'] == 'before_tool' and 'crash-now' in line: sys.exit(3)",
        "    print(json.dumps({'id': req['id']}), flush=True)",
        "",
      ].join("\n");
    case "node":
      return [
        "#!/usr/bin/env node",
        `import { appendFileSync } from "node:fs";`,
        `import { spawn } from "node:child_process";`,
        `import { defineHook } from ${JSON.stringify(SDK)};`,
        "let n = 0;",
        `defineHook({ name: ${JSON.stringify(name)}, events: ${JSON.stringify(events)}, mode: "persistent", timeout_ms: 10000 }, (event) => {`,
        "  n += 1;",
        `  if (n === 1) spawn("bash", ["-c", ${JSON.stringify(escapee)}], { stdio: "ignore" });`,
        `  appendFileSync(${JSON.stringify(log)}, \`\${process.pid} \${n} \${event.event}\\n\`);`,
        "  if (event.event === 'before_tool' && JSON.stringify(event).includes('crash-now')) process.exit(3);",
        "});",
        "",
      ].join("\n");
    default:
      return lang satisfies never;
  }
}

/** `<ACAI_HOME>/hooks/<name>[.mjs]`: a user hook (trusted by definition). */
export async function installPersistentHook(
  dirs: AcaiDirs,
  lang: Lang,
  options: { name: string; events: string[]; log: string; marker: string },
): Promise<string> {
  const file = path.join(
    dirs.acaiHome,
    "hooks",
    lang === "node" ? `${options.name}.mjs` : options.name,
  );
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, persistentHookSource(lang, options));
  await chmod(file, 0o755);
  return file;
}

/** The log's lines as `{pid, n, event}`. */
export async function readServed(
  log: string,
): Promise<Array<{ pid: number; n: number; event: string }>> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [pid, n, event] = line.split(" ");
      return { pid: Number(pid), n: Number(n), event: String(event) };
    });
}
