/**
 * PlainHeaders (decision 0067) behaves as Node's own `Headers` for what the
 * AI SDK and the model fetch do with it: each case runs the same steps on
 * both and compares what they show.
 */
import { describe, expect, it } from "vitest";
import { type HeadersInput, PlainHeaders } from "../../../source/models/http/headers.js";

type Like = Pick<
  Headers,
  "append" | "set" | "get" | "has" | "delete" | "getSetCookie" | "forEach"
> &
  Iterable<[string, string]>;

function shown(headers: Like) {
  const viaForEach: string[] = [];
  headers.forEach((value, name) => {
    viaForEach.push(`${name}=${value}`);
  });
  return { entries: [...headers], viaForEach, cookies: headers.getSetCookie() };
}

function both(init: HeadersInput | undefined, steps: (h: Like) => void = () => {}) {
  const own = new PlainHeaders(init) as unknown as Like;
  const node = new Headers(init as HeadersInit) as unknown as Like;
  steps(own);
  steps(node);
  return { own: shown(own), node: shown(node) };
}

describe("PlainHeaders, side by side with Node's Headers", () => {
  const cases: Array<[string, HeadersInput | undefined, ((h: Like) => void)?]> = [
    [
      "a record, names lower-cased and sorted",
      { "X-B": "2", "Content-Type": "application/json", a: "1" },
    ],
    [
      "a list of pairs with a repeated name",
      [
        ["Accept", "a"],
        ["accept", "b"],
        ["x", " padded\t"],
      ],
    ],
    [
      "another Headers",
      new Headers({ "User-Agent": "ai-sdk", "x-y": "z" }) as unknown as HeadersInput,
    ],
    [
      "set-cookie kept apart",
      [
        ["set-cookie", "a=1"],
        ["Set-Cookie", "b=2"],
        ["x", "1"],
      ],
    ],
    [
      "append, set, delete",
      { "user-agent": "one" },
      (h) => {
        h.append("User-Agent", "two");
        h.set("x-new", "v");
        h.append("x-list", "1");
        h.append("x-list", "2");
        h.delete("X-NEW");
      },
    ],
    ["nothing", undefined],
  ];
  for (const [name, init, steps] of cases) {
    it(name, () => {
      const { own, node } = both(init, steps);
      expect(own).toEqual(node);
    });
  }

  it("get and has look names up case-blind, and give null for a missing one", () => {
    const own = new PlainHeaders({ "Content-Length": "12" });
    const node = new Headers({ "Content-Length": "12" });
    for (const name of ["content-length", "CONTENT-LENGTH", "missing"]) {
      expect(own.get(name)).toBe(node.get(name));
      expect(own.has(name)).toBe(node.has(name));
    }
  });

  it("refuses what Node's refuses: a bad name, a value with a line break, a pair of three", () => {
    const attempts: Array<() => unknown> = [
      () => new PlainHeaders({ "bad name": "x" }),
      () => new PlainHeaders({ ok: "line\r\nbreak" }),
      () => new PlainHeaders([["a", "b", "c"]] as unknown as HeadersInput),
    ];
    const native: Array<() => unknown> = [
      () => new Headers({ "bad name": "x" }),
      () => new Headers({ ok: "line\r\nbreak" }),
      () => new Headers([["a", "b", "c"]] as unknown as HeadersInit),
    ];
    attempts.forEach((attempt, i) => {
      expect(attempt).toThrow(TypeError);
      expect(native[i]).toThrow(TypeError);
    });
  });
});
