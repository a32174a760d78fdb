/**
 * Every event has every part: its module (row, schema, builder, sample, help,
 * names in every dialect), the agent's name for it (`RAISES`), its generated
 * JSON Schema, and its rows in docs/hooks.md. Adding an event without one of
 * them fails here, naming the event and the part.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RAISES } from "../../../../source/agent/raises.js";
import { sampleAgentEvent } from "../../../../source/cli/hooks/samples.js";
import {
  A3S_EVENTS,
  A3S_SNAKE,
  HOOK_EVENT_OF,
  normalizeAgentHooksEventName,
  normalizeEventName,
  OPENCLAW_EVENTS,
} from "../../../../source/hooks/contract/events/names.js";
import {
  EVENT_MODULES,
  eventRow,
  HOOK_EVENTS,
  type HookEventName,
} from "../../../../source/hooks/contract/events/table.js";
import { buildPayload } from "../../../../source/hooks/contract/payload.js";
import { PAYLOAD_SCHEMAS } from "../../../../source/sdk/payload-schemas.js";

// @ts-expect-error: a plain .mjs script without types (its one export takes the repo root, returns path → text)
const { generatedFiles } = (await import("../../../../scripts/generate-events.mjs")) as {
  generatedFiles(root: string): Promise<Map<string, string>>;
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const hooksDoc = readFileSync(path.join(root, "docs/hooks.md"), "utf8");

/** The rows of a docs/hooks.md section's tables that start with `` `event` ``. */
function docRows(heading: string): Map<string, string> {
  const start = hooksDoc.indexOf(`\n## ${heading}\n`);
  const end = hooksDoc.indexOf("\n## ", start + 1);
  const rows = new Map<string, string>();
  for (const line of hooksDoc.slice(start, end).split("\n")) {
    const name = /^\| `([a-z_]+)` \|/.exec(line)?.[1];
    if (name !== undefined) rows.set(name, line);
  }
  return rows;
}
const eventRows = docRows("Events");
const fieldRows = docRows("What a hook receives");

/** The field names a help line lists: `source (startup|resume), model` → source, model. */
function helpFields(text: string): string[] {
  return text
    .replace(/\{[^}]*\}|\([^)]*\)/g, "")
    .split(",")
    .map((item) => item.trim());
}

async function sample(event: HookEventName) {
  return sampleAgentEvent({
    event,
    toolName: "Bash",
    projectDir: "/work/project",
    sessionId: "s-1",
    transcriptPath: "/work/home/t.jsonl",
    model: "gpt-test",
  });
}

describe("every hook event has every part", () => {
  it("the module list and RAISES are generated from the modules as they are now (npm run build)", async () => {
    for (const [file, text] of await generatedFiles(root)) {
      expect(readFileSync(path.join(root, file), "utf8"), `${file} is stale: npm run build`).toBe(
        text,
      );
    }
  });

  it("one module per event, listed once, each its own name", () => {
    expect(EVENT_MODULES.map((module) => module.name)).toEqual(HOOK_EVENTS);
    expect(new Set(HOOK_EVENTS).size).toBe(HOOK_EVENTS.length);
    expect(Object.keys(RAISES).sort()).toEqual([...HOOK_EVENTS].sort());
  });

  for (const event of HOOK_EVENTS) {
    describe(event, () => {
      const row = eventRow(event);
      const shape = PAYLOAD_SCHEMAS[event].shape as Record<string, unknown>;

      it("is raised under the agent event its row names", () => {
        expect(row.agentEvent).toBe(RAISES[event]);
        expect(HOOK_EVENT_OF[row.agentEvent]).toBe(event);
      });

      it("has a sample its builder turns into a payload its schema accepts, field by field", async () => {
        const ev = await sample(event);
        expect(ev.type).toBe(row.agentEvent);
        const payload = buildPayload({
          event,
          agentEvent: ev,
          session: { sessionId: "s-1", transcriptPath: "/t.jsonl", cwd: "/work/project" },
          dialect: "acai",
          now: 0,
        });
        expect(PAYLOAD_SCHEMAS[event].safeParse(payload).error).toBeUndefined();
        // Nothing is sent that the schema (and so the SDK's types and the JSON Schema) does not declare.
        expect(Object.keys(payload).filter((key) => !(key in shape))).toEqual([]);
      });

      it("has its help for acai hooks init, naming only fields it sends", () => {
        expect(row.help.fields).not.toBe("");
        expect(row.help.can).not.toBe("");
        for (const field of helpFields(row.help.fields)) expect(shape).toHaveProperty(field);
      });

      it("says what a block does, and reads back from its name in every dialect", () => {
        expect(row.onBlock).not.toBe("");
        expect(normalizeEventName(event)).toBe(event);
        expect(normalizeEventName(row.claude)).toBe(event);
        for (const name of [row.agentHooks?.name, ...(row.agentHooks?.aliases ?? [])]) {
          if (name !== undefined) expect(normalizeAgentHooksEventName(name)).toBe(event);
        }
        for (const name of row.plugins?.openclaw ?? [])
          expect(OPENCLAW_EVENTS[name]).toContain(event);
        const a3s = row.plugins?.a3s;
        if (a3s !== undefined) {
          expect(A3S_EVENTS[a3s.name]).toContain(event);
          expect(A3S_SNAKE[a3s.snake]).toBe(a3s.name);
        }
      });

      it("has its generated JSON Schema and its rows in docs/hooks.md", () => {
        expect(existsSync(path.join(root, "schemas", `event-${event}.json`))).toBe(true);
        expect(eventRows.get(event), `docs/hooks.md, ## Events: no row for ${event}`).toBeDefined();
        expect(eventRows.get(event)).toContain(row.claude === event ? event : row.claude);
        const fields = fieldRows.get(event);
        expect(fields, `docs/hooks.md, ## What a hook receives: no row for ${event}`).toBeDefined();
        for (const field of helpFields(row.help.fields)) expect(fields).toContain(`\`${field}\``);
      });
    });
  }
});
