import { describe, expect, it } from "vitest";
import { BUILTIN_INPUT_SCHEMAS } from "../../source/tools/builtin/input-schemas.generated.js";
import { BUILTIN_INPUTS } from "../../source/tools/builtin/inputs.js";
import { TASK_TOOL_NAME, taskTool } from "../../source/tools/builtin/task.js";
import { toInputJsonSchema } from "../../source/tools/define.js";
import { builtinTools } from "../../source/tools/registry.js";

// The built-in tools' JSON Schemas are generated at build time (decision 0054): the
// generated module must say exactly what z.toJSONSchema says of the zod inputs today.
describe("the built-in tools' generated input JSON Schemas", () => {
  it("match z.toJSONSchema of each tool's zod input, tool for tool", () => {
    expect(Object.keys(BUILTIN_INPUT_SCHEMAS).sort()).toEqual(Object.keys(BUILTIN_INPUTS).sort());
    for (const [name, input] of Object.entries(BUILTIN_INPUTS)) {
      expect({ name, schema: (BUILTIN_INPUT_SCHEMAS as Record<string, unknown>)[name] }).toEqual({
        name,
        schema: toInputJsonSchema(input),
      });
    }
  });

  it("cover every built-in tool, Task included", () => {
    const names = [...builtinTools().map((tool) => tool.name), TASK_TOOL_NAME];
    expect(names.sort()).toEqual(Object.keys(BUILTIN_INPUTS).sort());
  });

  it("are what each tool gives the model, a copy per tool", () => {
    const task = taskTool({ definitions: [], run: async function* () {} as never });
    for (const tool of [...builtinTools(), task]) {
      const generated = (BUILTIN_INPUT_SCHEMAS as Record<string, unknown>)[tool.name];
      expect(tool.inputSchema).toEqual(generated);
      expect(tool.inputSchema).not.toBe(generated);
    }
    const [first] = builtinTools();
    const [again] = builtinTools();
    expect(first?.inputSchema).not.toBe(again?.inputSchema);
  });

  it("keep defaults out of the required fields (the input side)", () => {
    expect(BUILTIN_INPUT_SCHEMAS.Task.required).toEqual(["description", "prompt"]);
  });
});
