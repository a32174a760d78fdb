import { describe, expect, it } from "vitest";
import { ControlStripper, stripControls } from "../../source/cli/terminal-text.js";

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
