import { describe, expect, it } from "vitest";
import { meaningfulErrorLine } from "../../source/process/error-output.js";

// Real error output (Node 20, Python 3.11), trimmed of nothing.
const NODE_UNKNOWN_EXTENSION = `node:internal/modules/esm/get_format:189
  throw new ERR_UNKNOWN_FILE_EXTENSION(ext, filepath);
        ^

TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".ts" for /p/.acai/hooks/guard.ts
    at Object.getFileProtocolModuleFormat [as file:] (node:internal/modules/esm/get_format:189:9)
    at defaultGetFormat (node:internal/modules/esm/get_format:232:36) {
  code: 'ERR_UNKNOWN_FILE_EXTENSION'
}

Node.js v20.20.2
`;

const NODE_SYNTAX = `/tmp/nt/h.mts:1
const x: number = 1;
      ^

SyntaxError: Missing initializer in const declaration
    at wrapSafe (node:internal/modules/cjs/loader:1464:18)

Node.js v20.20.2
`;

const PYTHON = `Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/usr/lib/python3.11/json/decoder.py", line 337, in decode
    obj, end = self.raw_decode(s, idx=_w(s, 0).end())
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)
`;

describe("meaningfulErrorLine", () => {
  it("takes the line stating the error, not Node's internal header or its frames", () => {
    expect(meaningfulErrorLine(NODE_UNKNOWN_EXTENSION)).toBe(
      'TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".ts" for /p/.acai/hooks/guard.ts',
    );
    expect(meaningfulErrorLine(NODE_SYNTAX)).toBe(
      "SyntaxError: Missing initializer in const declaration",
    );
  });

  it("takes Python's exception line after the traceback", () => {
    expect(meaningfulErrorLine(PYTHON)).toMatch(/^json\.decoder\.JSONDecodeError: Expecting/);
  });

  it("keeps an ordinary first line, and falls back to the first line when all is noise", () => {
    expect(meaningfulErrorLine("./hook: line 3: jq: command not found\nmore\n")).toBe(
      "./hook: line 3: jq: command not found",
    );
    expect(meaningfulErrorLine("\n\n  something went wrong  \n")).toBe("something went wrong");
    expect(meaningfulErrorLine("    at foo (x.js:1:1)\n")).toBe("at foo (x.js:1:1)");
    expect(meaningfulErrorLine("")).toBe("");
    expect(meaningfulErrorLine("error: no such branch 'main'\nhint: …")).toBe(
      "error: no such branch 'main'",
    );
  });

  it("clips a long line", () => {
    const line = meaningfulErrorLine(`Error: ${"x".repeat(1000)}`, 50);
    expect(line).toHaveLength(50);
    expect(line.endsWith("…")).toBe(true);
  });
});
