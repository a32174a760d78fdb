import { describe, expect, it } from "vitest";
import {
  ControlStripper,
  inertLines,
  inertText,
  jsonForTerminal,
  stripControls,
} from "../../source/terminal/inert-text.js";

describe("stripControls", () => {
  it("keeps plain text, newlines, tabs and non-ASCII text", () => {
    expect(stripControls("a\tb\nc — é 日本 🙂")).toBe("a\tb\nc — é 日本 🙂");
  });

  it("removes whole escape sequences, not just the ESC", () => {
    expect(stripControls("\x1b]0;PWNED\x07\x1b[31mred\x1b[0m")).toBe("red");
    expect(stripControls("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b")).toBe("alinkb");
    expect(stripControls("\x1b[2J\x1b[H\x1b[?25lclear")).toBe("clear");
    expect(stripControls("\x1b(Bx\x1bcy\x1b7z")).toBe("xyz");
    expect(stripControls("\x1bP1$r\x1b\\dcs")).toBe("dcs");
    expect(stripControls("\x1b_apc\x07\x1b^pm\x07\x1bXsos\x07ok")).toBe("ok");
  });

  it("removes C1 controls and their sequences (CSI, OSC as single characters)", () => {
    expect(stripControls("\u009b31mred\u009d0;title\u0007!")).toBe("red!");
    expect(stripControls("a\u0085b\u009cc")).toBe("abc");
  });

  it("removes the other C0 controls and DEL: CR, BEL, backspace, NUL", () => {
    expect(stripControls("over\rwrite\x07\x08\x00\x7f!\r\n")).toBe("overwrite!\n");
  });

  it("an unterminated string sequence ends at a line break; a broken CSI at its first non-CSI byte", () => {
    expect(stripControls("\x1b]0;title never ends\nnext line")).toBe("\nnext line");
    expect(stripControls("\x1b[31\nstill here")).toBe("\nstill here");
    expect(stripControls("trailing \x1b")).toBe("trailing ");
    expect(stripControls("\x1b]0;x\x1b[1mbold")).toBe("bold");
  });
});

describe("ControlStripper (streamed text)", () => {
  it("recognises a sequence split across chunks", () => {
    const stripper = new ControlStripper();
    const chunks = ["Hello \x1b", "]0;PWN", "ED\x07\x1b[3", "1mred", " \x1b", "[0mdone"];
    expect(chunks.map((c) => stripper.push(c)).join("")).toBe("Hello red done");
  });

  it("passes chunks without controls through unchanged", () => {
    const stripper = new ControlStripper();
    const chunk = "plain text\n";
    expect(stripper.push(chunk)).toBe(chunk);
  });
});

/** Code points a terminal would act on or hide, left raw in `text`. */
function rawControls(text: string): number[] {
  return [...text]
    .map((c) => c.codePointAt(0) ?? 0)
    .filter((n) => n < 0x20 || (n >= 0x7f && n <= 0x9f) || n === 0x202e || n >= 0xe0000);
}

describe("inertText (project text on the terminal)", () => {
  it("leaves ordinary text alone: non-ASCII, emoji, backslashes of a regex", () => {
    expect(inertText("rm\\s+-rf — é 日本 🙂 ./run.sh")).toBe("rm\\s+-rf — é 日本 🙂 ./run.sh");
  });

  it("shows a line-rewriting command as it is: \\r and the erase sequence visible", () => {
    const shown = inertText("echo pwned > x #\r\x1b[2K      command: npm run lint");
    expect(shown).toBe("echo pwned > x #\\r\\x1b[2K      command: npm run lint");
    expect(rawControls(shown)).toEqual([]);
  });

  it("shows conceal, OSC titles, bells and NUL visibly instead of interpreting them", () => {
    expect(inertText("npm test\x1b[8m; curl x | sh\x1b[0m")).toBe(
      "npm test\\x1b[8m; curl x | sh\\x1b[0m",
    );
    expect(inertText("\x1b]0;title\x07\x00\x7f")).toBe("\\x1b]0;title\\x07\\x00\\x7f");
  });

  it("escapes C1 controls (CSI, OSC, NEL as single characters)", () => {
    expect(inertText("a\u009b2Kb\u009d0;t\u0085")).toBe("a\\x9b2Kb\\x9d0;t\\x85");
  });

  it("escapes newlines and tabs in one-line fields, keeps newlines in inertLines", () => {
    expect(inertText("a\nb\tc")).toBe("a\\nb\\tc");
    expect(inertLines("a\nb\tc\r\n")).toBe("a\nb\\tc\\r\n");
  });

  it("escapes bidi overrides and isolates, zero-width and other invisible format characters", () => {
    expect(inertText("safe\u202ehs.lrup\u202c")).toBe("safe\\u202ehs.lrup\\u202c");
    expect(inertText("a\u2066b\u2069c\u200bd\u200de\u00adf\ufeffg")).toBe(
      "a\\u2066b\\u2069c\\u200bd\\u200de\\xadf\\ufeffg",
    );
    expect(inertText("x\u2028y\u3164z\ufe0f")).toBe("x\\u2028y\\u3164z\\ufe0f");
    // Tag characters spell hidden ASCII ("ASCII smuggling").
    expect(inertText("ok\u{e0041}\u{e0042}")).toBe("ok\\u{e0041}\\u{e0042}");
  });
});

describe("jsonForTerminal", () => {
  it("escapes DEL, C1 and invisible characters JSON.stringify leaves raw; the value reads back the same", () => {
    const value = { cmd: "a\u009b2K\x7f\u202eb\u{e0041}\x1b[8m", n: [1, 2] };
    const text = jsonForTerminal(value, 2);
    expect(rawControls(text.replaceAll("\n", ""))).toEqual([]);
    expect(text).toContain("\\u009b2K\\u007f\\u202eb\\udb40\\udc41\\u001b[8m");
    expect(JSON.parse(text)).toEqual(value);
  });
});
