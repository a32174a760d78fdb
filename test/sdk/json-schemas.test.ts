import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { HOOK_EVENTS } from "../../source/hooks/contract/definition.js";
import { generateSchemas, schemaFileText } from "../../source/sdk/json-schemas.js";

const SCHEMAS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "schemas",
);

describe("checked-in JSON Schemas", () => {
  it("are exactly what the zod schemas generate (run `npm run schemas` after changing them)", async () => {
    const generated = generateSchemas();
    const onDisk = (await readdir(SCHEMAS_DIR)).filter((name) => name.endsWith(".json")).sort();
    expect(onDisk).toEqual(Object.keys(generated).sort());
    for (const [name, schema] of Object.entries(generated)) {
      const text = await readFile(path.join(SCHEMAS_DIR, name), "utf8");
      expect(text, `schemas/${name} is stale`).toBe(schemaFileText(schema));
    }
  });

  it("cover metadata, every event payload and the answer", () => {
    const names = Object.keys(generateSchemas());
    for (const event of HOOK_EVENTS) expect(names).toContain(`event-${event}.json`);
    expect(names).toEqual(
      expect.arrayContaining(["hook-metadata.json", "hook-answer.json", "settings-hooks.json"]),
    );
    const answer = generateSchemas()["hook-answer.json"] as { properties: Record<string, unknown> };
    expect(Object.keys(answer.properties)).toEqual(
      expect.arrayContaining([
        "action",
        "reason",
        "input",
        "input_patch",
        "prompt",
        "output",
        "context",
        "message",
        "retry_after_ms",
        "log",
      ]),
    );
  });

  it("are referenced from docs/hooks.md", async () => {
    const docs = await readFile(path.join(SCHEMAS_DIR, "..", "docs", "hooks.md"), "utf8");
    for (const name of [
      "hook-metadata.json",
      "hook-answer.json",
      "hook-event.json",
      "settings-hooks.json",
    ]) {
      expect(docs).toContain(`schemas/${name}`);
    }
  });
});
