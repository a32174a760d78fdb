/**
 * What the tool-input matchers look at (hooks.md §6): `pattern` searched in
 * the input's string values and then in its JSON, `command` and `path` read
 * from the input's fields, a `path` glob judged against the project. Bounded:
 * a hostile input costs no more than `MAX_STRING_SCAN_NODES` values.
 */
import path from "node:path";

/** A `path` matcher compiled: its glob, the test, and whether the glob is absolute. */
export interface PathTest {
  glob: string;
  test: (candidate: string) => boolean;
  absolute: boolean;
}

const jsonByInput = new WeakMap<object, string>();

function inputJson(input: unknown): string {
  if (typeof input === "object" && input !== null) {
    let json = jsonByInput.get(input);
    if (json === undefined) {
      json = JSON.stringify(input) ?? "";
      jsonByInput.set(input, json);
    }
    return json;
  }
  return input === undefined ? "" : (JSON.stringify(input) ?? "");
}

/** String values visited at most per input (a hostile input costs no more than this). */
const MAX_STRING_SCAN_NODES = 10_000;

/** Whether `re` is found in some string value of `input`, at any depth (bounded). */
function someStringMatches(input: unknown, re: RegExp): boolean {
  const stack: unknown[] = [input];
  for (let visited = 0; stack.length > 0 && visited < MAX_STRING_SCAN_NODES; visited++) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (re.test(value)) return true;
    } else if (typeof value === "object" && value !== null) {
      for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child);
    }
  }
  return false;
}

/** `pattern`: searched in each string value of the input, then in the input as JSON (hooks.md §6). */
export function matchesPattern(re: RegExp, input: unknown): boolean {
  return someStringMatches(input, re) || re.test(inputJson(input));
}

export function field(input: unknown, key: string): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const value = (input as Record<string, unknown>)[key];
  return typeof value === "string" ? value : undefined;
}

export function matchesPath(
  compiled: PathTest,
  filePath: string,
  projectDir: string | undefined,
): boolean {
  if (compiled.absolute) {
    return compiled.test(projectDir ? path.resolve(projectDir, filePath) : filePath);
  }
  let relative = filePath;
  if (path.isAbsolute(filePath)) {
    if (projectDir === undefined) return compiled.test(filePath);
    relative = path.relative(projectDir, filePath);
  } else {
    relative = path.normalize(filePath);
  }
  return relative !== "" && compiled.test(relative);
}
