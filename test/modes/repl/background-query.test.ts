// Reading a terminal's answer to the OSC 11 background query.
import { describe, expect, it } from "vitest";
import { backgroundOfAnswer } from "../../../lib/modes/repl/background-query.ts";

describe("the background answer", () => {
  it("is light above the middle luminance and dark below, with either terminator and any digit count", () => {
    expect(backgroundOfAnswer("\x1b]11;rgb:ffff/ffff/ffff\x1b\\")).toBe("light");
    expect(backgroundOfAnswer("\x1b]11;rgb:c0c0/c0c0/c0c0\x07")).toBe("light");
    expect(backgroundOfAnswer("\x1b]11;rgb:1e/1e/2e\x07")).toBe("dark");
    expect(backgroundOfAnswer("\x1b]11;rgb:0000/0000/0000\x1b\\")).toBe("dark");
  });

  it("is nothing when the text is not an answer", () => {
    expect(backgroundOfAnswer("abc")).toBeUndefined();
    expect(backgroundOfAnswer("\x1b]11;?\x1b\\")).toBeUndefined();
  });
});
