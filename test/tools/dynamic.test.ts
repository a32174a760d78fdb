import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runProcess } from "../../source/process/runner.js";
import { loadDynamicTools } from "../../source/tools/dynamic.js";
import { builtinTools, loadTools } from "../../source/tools/registry.js";
import type { Tool } from "../../source/tools/types.js";
import { contextFor, expectError, expectOk, makeTempDir, testEnv } from "./helpers.js";

let dir: string;
let project: string;
let acaiHome: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir("dynamic"));
  project = join(dir, "project");
  acaiHome = join(dir, "home");
  await mkdir(join(project, ".acai", "tools"), { recursive: true });
  await mkdir(join(acaiHome, "tools"), { recursive: true });
});
afterEach(() => cleanup());

/** A bash tool script: `describe` prints the metadata, `execute` runs `body`. */
async function script(
  where: string,
  file: string,
  metadata: string,
  body: string,
  mode = 0o755,
): Promise<string> {
  const path = join(where, file);
  await writeFile(
    path,
    `#!/bin/bash
if [ "$TOOL_ACTION" = describe ]; then
cat <<'JSON'
${metadata}
JSON
exit 0
fi
${body}
`,
  );
  await chmod(path, mode);
  return path;
}

const projectTools = () => join(project, ".acai", "tools");
const userTools = () => join(acaiHome, "tools");
const load = (includeProject = true) =>
  loadTools({ projectDir: project, includeProject, acaiHome, runner: runProcess, env: testEnv });
const named = (tools: Tool[], name: string) => {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(", ")}`);
  return tool;
};

const upper = JSON.stringify({
  name: "upper",
  description: "Upper-cases text",
  input_schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
});

describe("dynamic tools", () => {
  it("describes, validates and executes a tool with its input on stdin", async () => {
    await script(
      projectTools(),
      "upper",
      upper,
      `read -r input; echo "$input" | tr a-z A-Z; echo "cwd=$(pwd -P)"`,
    );
    const { tools, warnings } = await load();
    expect(warnings).toEqual([]);
    const tool = named(tools, "upper");
    expect(tool.description).toBe("Upper-cases text");
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    });
    const result = expectOk(await tool.execute({ text: "hi there" }, contextFor(project)));
    const real = execFileSync("realpath", [project], { encoding: "utf8" }).trim();
    expect(result.output).toBe(`{"TEXT":"HI THERE"}\ncwd=${real}\n`);
    expect(result.response).toMatchObject({ exit_code: 0, interrupted: false });
  });

  it("accepts inputSchema and parameters spellings and defaults to an empty object schema", async () => {
    const props = { type: "object", properties: { n: { type: "integer" } } };
    await script(
      userTools(),
      "a",
      JSON.stringify({ name: "a", description: "A", inputSchema: props }),
      "echo a",
    );
    await script(
      userTools(),
      "b",
      JSON.stringify({ name: "b", description: "B", parameters: props }),
      "echo b",
    );
    await script(userTools(), "c", JSON.stringify({ name: "c", description: "C" }), "echo c");
    const { tools, warnings } = await load();
    expect(warnings).toEqual([]);
    expect(named(tools, "a").inputSchema).toEqual(props);
    expect(named(tools, "b").inputSchema).toEqual(props);
    expect(named(tools, "c").inputSchema).toEqual({ type: "object", properties: {} });
  });

  it("checks required keys and primitive types, naming the field", async () => {
    await script(projectTools(), "upper", upper, "cat");
    const tool = named((await load()).tools, "upper");
    expect(tool.validate({ text: "ok" })).toEqual({ ok: true, value: { text: "ok" } });
    expect(tool.validate({})).toEqual({
      ok: false,
      error: "Invalid input for upper: text: required",
    });
    expect(tool.validate({ text: 3 })).toEqual({
      ok: false,
      error: "Invalid input for upper: text: expected string, got number",
    });
    expect(tool.validate([1])).toMatchObject({ ok: false });
    expect(expectError(await tool.execute("nope", contextFor(project))).error).toMatch(
      /expected an object/,
    );
  });

  it("turns a non-zero exit into an error with stderr and stdout", async () => {
    await script(projectTools(), "upper", upper, `echo "partial"; echo "bad input" >&2; exit 4`);
    const tool = named((await load()).tools, "upper");
    const result = expectError(await tool.execute({ text: "x" }, contextFor(project)));
    expect(result.error).toBe("Tool upper failed with exit code 4:\nbad input\npartial");
    expect(result.interrupted).toBe(false);
    expect(result.response).toMatchObject({ exit_code: 4 });
  });

  it("kills a tool after its metadata timeout, with its children", async () => {
    const marker = `acai-dyn-timeout-${randomUUID()}`;
    const meta = JSON.stringify({ name: "slow", description: "Sleeps", timeout_ms: 200 });
    await script(projectTools(), "slow", meta, `bash -c 'sleep 30; : ${marker}' & sleep 30`);
    const tool = named((await load()).tools, "slow");
    const started = performance.now();
    const result = expectError(await tool.execute({}, contextFor(project)));
    expect(performance.now() - started).toBeLessThan(3000);
    expect(result.error).toMatch(/^Tool slow timed out after 200 ms and was killed/);
    expect(result.interrupted).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(execFileSync("ps", ["-eo", "args="], { encoding: "utf8" })).not.toContain(marker);
  });

  it("reports broken tools as warnings naming the file, and still loads the others", async () => {
    await script(
      projectTools(),
      "good",
      JSON.stringify({ name: "good", description: "Fine" }),
      "echo ok",
    );
    const notJson = await script(projectTools(), "notjson", "this is not json", "true");
    const badName = await script(
      projectTools(),
      "badname",
      JSON.stringify({ name: "has space", description: "x" }),
      "",
    );
    const badSchema = await script(
      projectTools(),
      "badschema",
      JSON.stringify({ name: "bs", description: "x", input_schema: { type: "string" } }),
      "",
    );
    const crashing = join(projectTools(), "crash");
    await writeFile(crashing, "#!/bin/bash\necho 'boom: missing config' >&2\nexit 3\n");
    await chmod(crashing, 0o755);
    const badInterpreter = join(projectTools(), "interp");
    await writeFile(badInterpreter, "#!/nonexistent/interpreter\n");
    await chmod(badInterpreter, 0o755);
    await writeFile(join(projectTools(), "README.md"), "not executable: ignored\n");

    const { tools, warnings } = await load();
    expect(tools.map((t) => t.name)).toEqual([...builtinTools().map((t) => t.name), "good"]);
    expect(warnings).toHaveLength(5);
    const warningFor = (file: string) =>
      warnings.find((w) => w.startsWith(`Dynamic tool ${file} skipped:`)) ?? "";
    expect(warningFor(notJson)).toMatch(/did not print JSON \(got "this is not json"\)/);
    expect(warningFor(badName)).toMatch(/invalid metadata: name: must be 1-64 letters/);
    expect(warningFor(badSchema)).toMatch(
      /invalid metadata: input_schema: must have "type": "object"/,
    );
    expect(warningFor(crashing)).toMatch(/describe exited with code 3: boom: missing config/);
    expect(warningFor(badInterpreter)).toMatch(
      /cannot run .*interpreter \(the #! line\) was not found/,
    );
  });

  it("never lets a dynamic tool shadow a built-in, and the project wins over the user on a clash", async () => {
    const shadow = await script(
      projectTools(),
      "mybash",
      JSON.stringify({ name: "bash", description: "x" }),
      "",
    );
    await script(
      projectTools(),
      "dup",
      JSON.stringify({ name: "dup", description: "project" }),
      "echo project",
    );
    const userDup = await script(
      userTools(),
      "dup",
      JSON.stringify({ name: "dup", description: "user" }),
      "echo user",
    );
    const { tools, warnings } = await load();
    expect(tools.filter((t) => t.name.toLowerCase() === "bash")).toHaveLength(1);
    expect(named(tools, "dup").description).toBe("project");
    expect(warnings).toEqual([
      `Dynamic tool ${shadow} skipped: its name "bash" would shadow a built-in tool; rename it.`,
      `Dynamic tool ${userDup} skipped: the name "dup" is already taken by ${join(projectTools(), "dup")}.`,
    ]);
  });

  it("leaves the project's tools out, without running them, when the project is not included", async () => {
    const marker = join(dir, "project-tool-described");
    await script(
      projectTools(),
      "probe",
      JSON.stringify({ name: "probe", description: "project" }),
      "",
    );
    await writeFile(
      join(projectTools(), "probe"),
      (await readFile(join(projectTools(), "probe"), "utf8")).replace(
        "#!/bin/bash\n",
        `#!/bin/bash\ntouch '${marker}'\n`,
      ),
    );
    await script(userTools(), "mine", JSON.stringify({ name: "mine", description: "user" }), "");
    const { tools, warnings } = await load(false);
    expect(tools.map((t) => t.name)).toContain("mine");
    expect(tools.map((t) => t.name)).not.toContain("probe");
    expect(warnings).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    expect((await load(true)).tools.map((t) => t.name)).toContain("probe");
    expect(existsSync(marker)).toBe(true);
  });

  it("describes tools in parallel", async () => {
    for (let i = 0; i < 4; i++) {
      await script(
        projectTools(),
        `t${i}`,
        JSON.stringify({ name: `t${i}`, description: "x" }),
        "",
        0o755,
      );
      // Make describe slow: sleep before answering.
      await writeFile(
        join(projectTools(), `t${i}`),
        `#!/bin/bash\nsleep 0.3\necho '{"name":"t${i}","description":"x"}'\n`,
      );
    }
    const started = performance.now();
    const { tools } = await loadDynamicTools({
      dirs: [projectTools()],
      projectDir: project,
      runner: runProcess,
      env: testEnv,
    });
    expect(tools.map((t) => t.name)).toEqual(["t0", "t1", "t2", "t3"]);
    expect(performance.now() - started).toBeLessThan(1100);
  });

  it("loads nothing, without warnings, when the tool directories do not exist", async () => {
    const { tools, warnings } = await loadTools({
      projectDir: join(dir, "elsewhere"),
      includeProject: true,
      acaiHome: join(dir, "nohome"),
      runner: runProcess,
      env: testEnv,
    });
    expect(tools.map((t) => t.name)).toEqual(["Bash", "Read", "Write", "Edit", "Glob", "Grep"]);
    expect(warnings).toEqual([]);
  });
});

describe("the repository's own example tool", () => {
  it("loads .acai/tools/word-count and counts a file", async () => {
    const repo = join(import.meta.dirname, "..", "..");
    const { tools, warnings } = await loadTools({
      projectDir: repo,
      includeProject: true,
      acaiHome,
      runner: runProcess,
      env: testEnv,
    });
    expect(warnings).toEqual([]);
    const tool = named(tools, "word_count");
    await writeFile(join(dir, "sample.txt"), "one two\nthree\n");
    const result = expectOk(
      await tool.execute({ path: join(dir, "sample.txt") }, contextFor(repo)),
    );
    expect(result.output).toBe("lines: 2\nwords: 3\nbytes: 14\n");
    const missing = expectError(await tool.execute({ path: "no/such/file" }, contextFor(repo)));
    expect(missing.error).toBe(
      "Tool word_count failed with exit code 1:\nword_count: no such file: no/such/file",
    );
  });
});

describe("builtinTools", () => {
  it("gives every tool a JSON Schema object with properties and a description", () => {
    for (const tool of builtinTools()) {
      expect(tool.description.length).toBeGreaterThan(20);
      expect(tool.inputSchema).toMatchObject({ type: "object" });
      expect(tool.inputSchema).not.toHaveProperty("$schema");
      expect(Object.keys(tool.inputSchema.properties as object).length).toBeGreaterThan(0);
    }
  });

  it("uses Claude Code's field names", () => {
    const fields = Object.fromEntries(
      builtinTools().map((t) => [t.name, Object.keys(t.inputSchema.properties as object).sort()]),
    );
    expect(fields.Read).toEqual(["file_path", "limit", "offset"]);
    expect(fields.Write).toEqual(["content", "file_path"]);
    expect(fields.Edit).toEqual(["file_path", "new_string", "old_string", "replace_all"]);
    expect(fields.Glob).toEqual(["path", "pattern"]);
    expect(fields.Grep).toEqual(
      expect.arrayContaining(["pattern", "path", "glob", "output_mode", "-i", "-n", "head_limit"]),
    );
  });
});
