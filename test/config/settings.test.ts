import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../source/config/json-depth.js";
import { findJsonErrorOffset, parseJsonWithLocation } from "../../source/config/json-error.js";
import { loadSettings } from "../../source/config/load-settings.js";
import { resolveAcaiPaths, resolveProjectPaths } from "../../source/config/paths.js";
import { MAX_PROJECT_FILE_BYTES } from "../../source/config/read-regular-file.js";
import { deepMerge, parseSettingsText, SettingsError } from "../../source/config/settings.js";
import { SettingsSchema } from "../../source/config/settings-schema.js";
import { PARSED_ONCE } from "../../source/shared/parsed-once.js";

let root: string;
let acaiHome: string;
let projectDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "acai-settings-"));
  acaiHome = path.join(root, "home", ".acai");
  projectDir = path.join(root, "project");
  await mkdir(acaiHome, { recursive: true });
  await mkdir(path.join(projectDir, ".acai"), { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const write = (file: string, value: unknown) =>
  writeFile(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));

describe("resolveAcaiPaths", () => {
  it("defaults to ~/.acai", () => {
    const paths = resolveAcaiPaths({ env: {}, homeDir: "/home/u" });
    expect(paths.home).toBe("/home/u/.acai");
    expect(paths.settingsFile).toBe("/home/u/.acai/settings.json");
    expect(paths.hooksDir).toBe("/home/u/.acai/hooks");
    expect(paths.toolsDir).toBe("/home/u/.acai/tools");
    expect(paths.transcriptsDir).toBe("/home/u/.acai/transcripts");
    expect(paths.logsDir).toBe("/home/u/.acai/logs");
    expect(paths.cacheDir).toBe("/home/u/.acai/cache");
    expect(paths.trustFile).toBe("/home/u/.acai/trust.json");
    expect(paths.replHistoryFile).toBe("/home/u/.acai/repl-history");
  });

  it("uses ACAI_HOME everywhere, resolving a relative one against cwd", () => {
    const paths = resolveAcaiPaths({ env: { ACAI_HOME: "/tmp/x" }, homeDir: "/home/u" });
    expect(paths.home).toBe("/tmp/x");
    expect(Object.values(paths).every((p) => p.startsWith("/tmp/x"))).toBe(true);
    const rel = resolveAcaiPaths({ env: { ACAI_HOME: "state" }, homeDir: "/h", cwd: "/work" });
    expect(rel.home).toBe("/work/state");
    expect(resolveAcaiPaths({ env: { ACAI_HOME: "  " }, homeDir: "/h" }).home).toBe("/h/.acai");
  });

  it("gives the project's .acai locations", () => {
    const project = resolveProjectPaths("/p");
    expect(project.settingsFile).toBe("/p/.acai/settings.json");
    expect(project.localSettingsFile).toBe("/p/.acai/settings.local.json");
    expect(project.hooksDir).toBe("/p/.acai/hooks");
    expect(project.toolsDir).toBe("/p/.acai/tools");
  });
});

describe("loadSettings", () => {
  it("returns empty settings when no file exists", async () => {
    const loaded = await loadSettings({ acaiHome, projectDir });
    expect(loaded).toEqual({
      settings: {},
      user: {},
      project: {},
      settingsFiles: [],
      warnings: [],
    });
  });

  it("merges user, project and local files, later wins, objects deep-merged", async () => {
    await write(path.join(acaiHome, "settings.json"), {
      model: "openai:gpt-5.1",
      maxSteps: 10,
      hookDefaults: { timeoutMs: 5000, maxStopBlocks: 3 },
    });
    await write(path.join(projectDir, ".acai", "settings.json"), {
      maxSteps: 20,
      hookDefaults: { timeoutMs: 7000 },
    });
    await write(path.join(projectDir, ".acai", "settings.local.json"), {
      baseUrl: "http://127.0.0.1:1234/v1",
      hookDefaults: { contextCapChars: 999 },
    });
    const loaded = await loadSettings({ acaiHome, projectDir });
    expect(loaded.settings).toEqual({
      model: "openai:gpt-5.1",
      maxSteps: 20,
      baseUrl: "http://127.0.0.1:1234/v1",
      hookDefaults: { timeoutMs: 7000, maxStopBlocks: 3, contextCapChars: 999 },
    });
    expect(loaded.settingsFiles.map((f) => f.scope)).toEqual(["user", "project", "project"]);
    expect(loaded.warnings).toEqual([]);
  });

  it("does not merge hooks: each file's section is returned separately", async () => {
    const userHooks = {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "a" }] }],
    };
    const projectHooks = { Stop: [{ hooks: [{ type: "command", command: "b" }] }] };
    await write(path.join(acaiHome, "settings.json"), { hooks: userHooks });
    await write(path.join(projectDir, ".acai", "settings.json"), { hooks: projectHooks });
    await write(path.join(projectDir, ".acai", "settings.local.json"), { maxSteps: 3 });
    const loaded = await loadSettings({ acaiHome, projectDir });
    expect(loaded.settings).toEqual({ maxSteps: 3 });
    expect(loaded.settingsFiles).toMatchObject([
      { path: path.join(acaiHome, "settings.json"), scope: "user", hooks: userHooks },
      {
        path: path.join(projectDir, ".acai", "settings.json"),
        scope: "project",
        hooks: projectHooks,
      },
      {
        path: path.join(projectDir, ".acai", "settings.local.json"),
        scope: "project",
        hooks: undefined,
        values: { maxSteps: 3 },
      },
    ]);
  });

  it("warns about unknown keys and ignores them", async () => {
    const file = path.join(projectDir, ".acai", "settings.json");
    await write(file, { permissionz: { allow: [] }, hookDefaults: { bogus: 1 }, maxSteps: 2 });
    const loaded = await loadSettings({ acaiHome, projectDir });
    expect(loaded.settings).toEqual({ maxSteps: 2, hookDefaults: {} });
    expect(loaded.warnings).toEqual([
      `Settings file ${file}: unknown field "permissionz" is ignored.`,
      `Settings file ${file}: unknown field "hookDefaults.bogus" is ignored.`,
    ]);
  });

  it("warns about unknown keys inside the sections a file has", async () => {
    const file = path.join(projectDir, ".acai", "settings.json");
    await write(file, {
      sandbox: { enabled: false, bogus: 1 },
      memory: { typo: true },
      capabilities: { nope: 1 },
      maxSteps: 2,
    });
    const loaded = await loadSettings({ acaiHome, projectDir });
    expect(loaded.settings.maxSteps).toBe(2);
    expect(loaded.warnings).toEqual([
      `Settings file ${file}: unknown field "capabilities.nope" is ignored.`,
      `Settings file ${file}: unknown field "memory.typo" is ignored.`,
      `Settings file ${file}: unknown field "sandbox.bogus" is ignored.`,
    ]);
  });

  it("reports invalid JSON with file, line and column", async () => {
    const file = path.join(projectDir, ".acai", "settings.json");
    await write(file, '{\n  "model": "openai:x",\n  "maxSteps": tru\n}\n');
    const error = await loadSettings({ acaiHome, projectDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).file).toBe(file);
    expect((error as SettingsError).message).toMatch(
      new RegExp(
        `^Settings file ${escapeRegExp(file)}:3:18 is not valid JSON \\(unexpected line break\\)\\. Fix the file`,
      ),
    );
  });

  it("reports a wrong type naming the file and the field", async () => {
    const file = path.join(acaiHome, "settings.json");
    await write(file, { maxSteps: "ten" });
    await expect(loadSettings({ acaiHome, projectDir })).rejects.toThrow(
      `Settings file ${file}: field "maxSteps" is invalid`,
    );
    await write(file, { hookDefaults: { timeoutMs: 5 } });
    const error = (await loadSettings({ acaiHome, projectDir }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('field "hookDefaults.timeoutMs" is invalid');
    expect(error.message).toContain("(got 5)");
    expect(error.message).toContain('Fix or remove "hookDefaults.timeoutMs"');
  });

  it("validates `pricing` by model, naming the file and the field; merges it model by model", async () => {
    const user = path.join(acaiHome, "settings.json");
    const project = path.join(projectDir, ".acai", "settings.json");
    await write(user, {
      pricing: { "my-model": { input: 0.5, output: 1.5 }, "gpt-5.1": { input: 1, output: 2 } },
    });
    await write(project, { pricing: { "my-model": { input: 0, output: 0, cached: 0.1 } } });
    const loaded = await loadSettings({ acaiHome, projectDir });
    expect(loaded.settings.pricing).toEqual({
      "my-model": { input: 0, output: 0 },
      "gpt-5.1": { input: 1, output: 2 },
    });
    expect(loaded.warnings).toEqual([
      `Settings file ${project}: unknown field "pricing.my-model.cached" is ignored.`,
    ]);

    const invalid = async (pricing: unknown): Promise<string> => {
      await write(project, { pricing });
      const error = await loadSettings({ acaiHome, projectDir }).catch((e: unknown) => e);
      return error instanceof SettingsError ? error.message : "no SettingsError";
    };
    expect(await invalid({ "my-model": { input: -1, output: 1 } })).toMatch(
      new RegExp(
        `^Settings file ${escapeRegExp(project)}: field "pricing\\.my-model\\.input" is invalid: .*>=0 \\(got -1\\)\\. Fix or remove "pricing\\.my-model\\.input"\\.$`,
      ),
    );
    expect(await invalid({ "my-model": { input: 0.5 } })).toContain(
      'field "pricing.my-model.output" is invalid',
    );
    expect(await invalid({ "my-model": { input: "0.5", output: 1 } })).toContain(
      'field "pricing.my-model.input" is invalid: Invalid input: expected number, received string (got "0.5")',
    );
    expect(await invalid({ "my-model": 3 })).toContain('field "pricing.my-model" is invalid');
    expect(await invalid([1])).toContain('field "pricing" is invalid');
  });

  it("rejects a file that is not an object, and a directory", async () => {
    const file = path.join(projectDir, ".acai", "settings.local.json");
    await write(file, "[1, 2]");
    await expect(loadSettings({ acaiHome, projectDir })).rejects.toThrow(
      `Settings file ${file} must contain a JSON object ({ ... }), not an array.`,
    );
    await rm(file);
    await mkdir(file);
    await expect(loadSettings({ acaiHome, projectDir })).rejects.toThrow(
      /it is a directory, not a regular file/,
    );
  });

  it("treats an empty file and a BOM as fine", () => {
    expect(parseSettingsText("f", "  \n").settings).toEqual({});
    expect(parseSettingsText("f", '\uFEFF{"maxSteps": 4}').settings).toEqual({ maxSteps: 4 });
  });

  it("validates baseUrl as an http(s) URL, naming the file and the field", () => {
    for (const bad of ["not a url", "ftp://x", "localhost:11434"]) {
      expect(() => parseSettingsText("f.json", JSON.stringify({ baseUrl: bad }))).toThrow(
        /^Settings file f\.json: field "baseUrl" is invalid: must be an http\(s\) URL/,
      );
    }
    expect(parseSettingsText("f.json", '{"baseUrl": "https://h/v1"}').settings.baseUrl).toBe(
      "https://h/v1",
    );
  });
});

describe("JSON error location", () => {
  it.each([
    ['{"a": x}', 6],
    ['{\n "a": 1,\n}', 11],
    ['{"a":1', 6],
    ["", 0],
    ["[1,]", 3],
    ['{"a": "b\nc"}', 8],
    ["{} x", 3],
    ['{"a": tru}', 9],
    ['{"a": 01}', 7],
    ['{"a": "\\q"}', 8],
  ])("finds the first error in %j at %i", (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonErrorOffset(text)).toBe(offset);
  });

  it("describes the error in words", () => {
    const missingComma = parseJsonWithLocation('{"a": 1 "b": 2}');
    expect(missingComma).toMatchObject({
      ok: false,
      reason: "Expected ',' or '}' after property value",
      location: { line: 1, column: 9 },
    });
    expect(parseJsonWithLocation('{"a": x}')).toMatchObject({ reason: "unexpected 'x'" });
    expect(parseJsonWithLocation('{"a":')).toMatchObject({ ok: false });
  });

  it("accepts what JSON.parse accepts", () => {
    const text = '{"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"], "b": {}}';
    expect(findJsonErrorOffset(text)).toBe(text.length);
    expect(parseJsonWithLocation(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });
});

describe("deepMerge", () => {
  it("replaces arrays and scalars, merges objects", () => {
    expect(
      deepMerge({ a: [1], b: { c: 1, d: 2 }, e: 1 }, { a: [2], b: { d: 3 }, e: { f: 1 } }),
    ).toEqual({
      a: [2],
      b: { c: 1, d: 3 },
      e: { f: 1 },
    });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("hostile settings files (read before trust)", () => {
  const projectFile = () => path.join(projectDir, ".acai", "settings.json");
  const loadError = async (): Promise<SettingsError> => {
    const error = await loadSettings({ acaiHome, projectDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SettingsError);
    return error as SettingsError;
  };

  it("a link to /dev/zero is refused at once, naming the file (not read to the end)", async () => {
    await symlink("/dev/zero", projectFile());
    const error = await loadError();
    expect(error.file).toBe(projectFile());
    expect(error.message).toContain(`Cannot read settings file ${projectFile()}`);
    expect(error.message).toContain("it is a character device, not a regular file");
  });

  it("a link to a FIFO nobody writes to does not block", async () => {
    const fifo = path.join(root, "fifo");
    execFileSync("mkfifo", [fifo]);
    await symlink(fifo, projectFile());
    const error = await loadError();
    expect(error.message).toContain("it is a named pipe, not a regular file");
  });

  it("a file over the size limit is refused, naming the limit", async () => {
    await write(projectFile(), `{"model": "${"x".repeat(MAX_PROJECT_FILE_BYTES)}"}`);
    const error = await loadError();
    expect(error.message).toContain(
      `Cannot read settings file ${projectFile()}: it is larger than the 1 MiB limit`,
    );
  });

  it("100,000 `[` deep, or a hooks value 20,000 levels deep: a clear error, no stack overflow", async () => {
    await write(projectFile(), "[".repeat(100_000));
    expect((await loadError()).message).toBe(
      `Settings file ${projectFile()} nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep, which no setting needs. Fix the file or remove it.`,
    );
    await write(projectFile(), `{"hooks": ${"[".repeat(20_000)}${"]".repeat(20_000)}}`);
    expect((await loadError()).message).toContain("more than 64 levels deep");
    // Exactly at the limit is fine (the hooks value itself is checked by the hooks registry).
    const atLimit = `{"hooks": ${"[".repeat(MAX_JSON_DEPTH - 1)}${"]".repeat(MAX_JSON_DEPTH - 1)}}`;
    expect(() => parseSettingsText("f.json", atLimit)).not.toThrow();
  });

  it("brackets inside strings do not count towards the depth", () => {
    const text = JSON.stringify({ model: "[".repeat(10_000) });
    expect(parseSettingsText("f.json", text).settings.model).toHaveLength(10_000);
  });
});

describe("findJsonErrorOffset on deep text", () => {
  it("scans 200,000 levels without recursion and finds the error offset", () => {
    const deep = `${"[".repeat(200_000)}x`;
    expect(findJsonErrorOffset(deep)).toBe(200_000);
    const valid = `${'[{"a":'.repeat(100_000)}1${"}]".repeat(100_000)}`;
    expect(findJsonErrorOffset(valid)).toBe(valid.length);
    expect(findJsonErrorOffset(`${"[".repeat(100_000)}`)).toBe(100_000);
    expect(findJsonErrorOffset('{"a": [1, 2}')).toBe(11);
    expect(findJsonErrorOffset('{"a": 1,}')).toBe(8);
  });
});

describe("a settings file is validated against the fields it sets (decision 0063)", () => {
  /** The whole schema's answer, in parseSettingsText's words: the data, or the first issue's path and message. */
  function byWholeSchema(value: Record<string, unknown>): unknown {
    const result = SettingsSchema.safeParse(value, PARSED_ONCE);
    if (result.success) return { data: result.data };
    const issue = result.error.issues[0];
    return { path: issue?.path.join("."), message: issue?.message };
  }
  function byFile(value: Record<string, unknown>): unknown {
    try {
      return { data: parseSettingsText("settings.json", JSON.stringify(value)).settings };
    } catch (error) {
      if (!(error instanceof SettingsError)) throw error;
      const field = /field "([^"]+)"/.exec(error.message)?.[1];
      return { field, message: error.message };
    }
  }

  it("every field is optional and has no default: an empty file is an empty object", () => {
    expect(SettingsSchema.parse({}, PARSED_ONCE)).toEqual({});
    for (const [key, field] of Object.entries(SettingsSchema.unwrap().shape)) {
      expect(field.safeParse(undefined, PARSED_ONCE), key).toEqual({
        success: true,
        data: undefined,
      });
    }
  });

  const values: Record<string, unknown>[] = [
    { hooks: { PreToolUse: [] } },
    { model: "openai:x", maxSteps: 5, env: { A: "1" }, permissions: { allow: ["Bash(ls)"] } },
    { sandbox: { enabled: true }, memory: { enabled: false }, hookDefaults: { timeoutMs: 500 } },
    { hooks: {}, unknownThing: 1, model: "m", pricing: { x: { input: 1, output: 2 } } },
    // Invalid: the first issue in field order is the one reported, whichever key comes first.
    { maxSteps: "many", model: "" },
    { env: { "1bad": "x" }, baseUrl: "ftp://x" },
    { permissions: { allow: "Bash" }, hooks: [] },
    { sandbox: { enabled: "yes" } },
  ];

  it("gives the same data as the whole schema, and fails on the same field first", () => {
    for (const value of values) {
      const whole = byWholeSchema(value) as { data?: unknown; path?: string };
      const file = byFile(value) as { data?: unknown; field?: string };
      if (whole.data !== undefined) {
        expect(file, JSON.stringify(value)).toEqual({ data: whole.data });
      } else {
        expect(file.data, JSON.stringify(value)).toBeUndefined();
        expect(file.field?.replace(/\[(\d+)\]/g, ".$1"), JSON.stringify(value)).toBe(whole.path);
      }
    }
  });

  it("a key named like an Object property is an unknown field, not a schema", () => {
    const text =
      '{"constructor": 1, "toString": "x", "__proto__": {"model": 3}, "hasOwnProperty": []}';
    const { settings, warnings } = parseSettingsText("settings.json", text);
    expect(settings).toEqual({});
    expect(warnings).toEqual([
      'Settings file settings.json: unknown field "constructor" is ignored.',
      'Settings file settings.json: unknown field "toString" is ignored.',
      'Settings file settings.json: unknown field "__proto__" is ignored.',
      'Settings file settings.json: unknown field "hasOwnProperty" is ignored.',
    ]);
  });
});
