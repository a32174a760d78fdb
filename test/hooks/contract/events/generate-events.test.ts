/**
 * scripts/generate-events.mjs: the module list and RAISES follow from the
 * event modules on disk — a new module is listed where its `listedAfter`
 * puts it and named in RAISES; a broken declaration stops the build naming
 * the file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// @ts-expect-error: a plain .mjs script without types
const { generatedFiles } = (await import("../../../../scripts/generate-events.mjs")) as {
  generatedFiles(root: string): Promise<Map<string, string>>;
};

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "acai-gen-events-"));
  mkdirSync(path.join(root, "source/hooks/contract/events"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function module(file: string, exportName: string, fields: string): void {
  writeFileSync(
    path.join(root, "source/hooks/contract/events", file),
    `import { defineEvent } from "./row.js";\nexport const ${exportName} = defineEvent({\n${fields}\n  kind: "gate",\n});\n`,
  );
}

describe("generate-events", () => {
  it("lists each module after the one it names and writes RAISES from their agent events", async () => {
    module("start.ts", "start", `name: "start", agentEvent: "begin",`);
    module("zeta.ts", "zeta", `name: "zeta", agentEvent: "zeta", listedAfter: "start",`);
    module("alpha.ts", "alpha", `name: "alpha", agentEvent: "a_happened", listedAfter: "start",`);
    module("omega.ts", "omega", `name: "omega", agentEvent: "omega", listedAfter: "alpha",`);
    writeFileSync(path.join(root, "source/hooks/contract/events/row.ts"), "export {};\n");
    const files = await generatedFiles(root);
    const list = files.get("source/hooks/contract/events/modules.generated.ts") ?? "";
    const order = /EVENT_MODULES = \[\n([^\]]*)\]/.exec(list)?.[1]?.split(/,\s*/).filter(Boolean);
    expect(order?.map((name) => name.trim())).toEqual(["start", "alpha", "omega", "zeta"]);
    expect(list).toContain('import { omega } from "./omega.js";');
    expect(list).not.toContain("row.js");
    const raises = files.get("source/agent/raises.ts") ?? "";
    expect(raises).toContain('  alpha: "a_happened",\n');
    expect(raises).toContain('  start: "begin",\n');
  });

  it("refuses a listedAfter that names no event, naming the file", async () => {
    module("start.ts", "start", `name: "start", agentEvent: "start",`);
    module("lost.ts", "lost", `name: "lost", agentEvent: "lost", listedAfter: "nowhere",`);
    await expect(generatedFiles(root)).rejects.toThrow(
      /lost\.ts: listedAfter names no event: nowhere/,
    );
  });

  it("refuses two first events, a name declared twice and a name that is no string literal", async () => {
    module("a.ts", "a", `name: "a", agentEvent: "a",`);
    module("b.ts", "b", `name: "b", agentEvent: "b",`);
    await expect(generatedFiles(root)).rejects.toThrow(/exactly one event module.*a, b/);
    module("b.ts", "b", `name: "a", agentEvent: "b", listedAfter: "a",`);
    await expect(generatedFiles(root)).rejects.toThrow(
      /b\.ts: event a is also declared in .*a\.ts/,
    );
    module("b.ts", "b", `name: NAME, agentEvent: "b", listedAfter: "a",`);
    await expect(generatedFiles(root)).rejects.toThrow(/b\.ts: name must be a string literal/);
  });

  it("refuses a loop of listedAfter", async () => {
    module("a.ts", "a", `name: "a", agentEvent: "a",`);
    module("b.ts", "b", `name: "b", agentEvent: "b", listedAfter: "c",`);
    module("c.ts", "c", `name: "c", agentEvent: "c", listedAfter: "b",`);
    await expect(generatedFiles(root)).rejects.toThrow(/loop among: b, c/);
  });
});
