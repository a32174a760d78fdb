/**
 * What the ported Gemini CLI and Codex hook scenarios share (SCENARIOS.md):
 * a temp project and ACAI_HOME, the scripted model server on 127.0.0.1 (so a
 * test can read what the model was sent), hook scripts written the way that
 * system's users write them (`node "…/x.cjs"` for Gemini CLI, `python3 …/x.py`
 * for Codex), each logging every payload it receives, and one `acai -p` run.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { jsonLines, modelArgs } from "../e2e/helpers.js";
import {
  type FakeOpenAIServer,
  type FakeScript,
  startFakeOpenAI,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, type AcaiResult, makeAcaiDirs, runAcai } from "../support/run-acai.js";

type Payload = Record<string, unknown>;

export interface Ported {
  dirs: AcaiDirs;
  server: FakeOpenAIServer;
  /** A Gemini CLI-style hook: `node "<dir>/<name>.cjs"`; `body` runs after `payload` is read and logged. */
  node(name: string, body: string): Promise<string>;
  /** A Codex-style hook: `python3 <dir>/<name>.py`; `body` runs after `payload` is read and logged. */
  python(name: string, body: string): Promise<string>;
  /** The payloads hook `name` received, in order. */
  payloads(name: string): Promise<Payload[]>;
  /** Writes `$ACAI_HOME/settings.json` as given (a Gemini settings.json or a Codex hooks.json). */
  settings(value: Record<string, unknown>): Promise<void>;
  /** `acai -p PROMPT` against the scripted server, `--yes` unless told otherwise. */
  run(prompt: string, options?: { yes?: boolean; extra?: string[] }): Promise<AcaiResult>;
  /** The messages of the model's request `i`, as one JSON string. */
  sent(i: number): string;
  cleanup(): Promise<void>;
}

const logOf = (dirs: AcaiDirs, name: string) => path.join(dirs.root, `${name}.payloads.jsonl`);

export async function ported(prefix: string, script: FakeScript): Promise<Ported> {
  const dirs = await makeAcaiDirs(prefix);
  const server = await startFakeOpenAI(script);
  const hookFile = async (file: string, text: string) => {
    const full = path.join(dirs.root, file);
    await writeFile(full, text);
    return full;
  };
  return {
    dirs,
    server,
    node: async (name, body) => {
      const log = JSON.stringify(logOf(dirs, name));
      const prelude = `const fs = require('fs');\nconst input = fs.readFileSync(0, 'utf-8');\nfs.appendFileSync(${log}, JSON.stringify(JSON.parse(input)) + '\\n');\nconst payload = JSON.parse(input);\n`;
      return `node "${await hookFile(`${name}.cjs`, prelude + body)}"`;
    },
    python: async (name, body) => {
      const log = JSON.stringify(logOf(dirs, name));
      const prelude = `import json, sys\npayload = json.load(sys.stdin)\nwith open(${log}, "a", encoding="utf-8") as handle:\n    handle.write(json.dumps(payload) + "\\n")\n`;
      return `python3 ${await hookFile(`${name}.py`, prelude + body)}`;
    },
    payloads: async (name) =>
      jsonLines(await readFile(logOf(dirs, name), "utf8").catch(() => "")) as Payload[],
    settings: (value) =>
      writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify(value, null, 2)),
    run: (prompt, options = {}) =>
      runAcai({
        dirs,
        args: [
          "-p",
          prompt,
          ...(options.yes === false ? [] : ["--yes"]),
          ...(options.extra ?? []),
          ...modelArgs("chat", server),
        ],
        baseUrl: server.url,
        timeoutMs: 30_000,
      }),
    sent: (i) => JSON.stringify(server.requests[i]?.body?.messages ?? null),
    cleanup: async () => {
      await server.close();
      await dirs.cleanup();
    },
  };
}

/** A Gemini CLI settings.json `hooks` entry: one group of command hooks (Gemini's `timeout` is in ms). */
export function geminiGroup(
  commands: Array<string | { name: string; command: string }>,
  matcher?: string,
): Record<string, unknown> {
  return {
    ...(matcher === undefined ? {} : { matcher }),
    sequential: true,
    hooks: commands.map((c) =>
      typeof c === "string"
        ? { type: "command", command: c }
        : { type: "command", name: c.name, command: c.command },
    ),
  };
}

/** A Codex hooks.json group: `{matcher?, hooks: [{type: "command", command, statusMessage}]}`. */
export function codexGroup(command: string, matcher?: string): Record<string, unknown> {
  return {
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [{ type: "command", command, statusMessage: "running hook" }],
  };
}
