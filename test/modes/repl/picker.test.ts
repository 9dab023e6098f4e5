// The REPL's picker: moving, filtering by typing, choosing and cancelling.
import { describe, expect, it } from "vitest";
import type { Key } from "../../../lib/modes/repl/keys.ts";
import { Picker, type PickerItem } from "../../../lib/modes/repl/picker.ts";
import { makeStyle } from "../../../lib/modes/repl/style.ts";

const plain = makeStyle(false);
const key = (name: Key["name"], text?: string): Key => ({ name, ...(text !== undefined ? { text } : {}) });
const items: PickerItem[] = ["alpha", "beta", "gamma", "delta"].map((v) => ({ value: v, label: v, detail: `${v.length} chars` }));

describe("the picker", () => {
  it("starts on the initial entry, moves within the list, and Enter picks the selected one", () => {
    const picker = new Picker("Pick", items, "beta");
    expect(picker.lines(plain, 80, 24)).toContain("› beta  4 chars");
    picker.handle(key("up"));
    picker.handle(key("up"));
    expect(picker.handle(key("enter"))).toEqual({ kind: "picked", value: "alpha" });
    picker.handle(key("end"));
    expect(picker.handle(key("enter"))).toEqual({ kind: "picked", value: "delta" });
  });

  it("typing narrows the list to matching entries, and backspace widens it again", () => {
    const picker = new Picker("Pick", items);
    picker.handle(key("rune", "l"));
    picker.handle(key("rune", "t"));
    const lines = picker.lines(plain, 80, 24);
    expect(lines[0]).toBe('Pick · matching "lt"');
    expect(lines.filter((l) => /^[ ›] /.test(l))).toEqual(["› delta  5 chars"]);
    picker.handle(key("rune", "x"));
    expect(picker.lines(plain, 80, 24)).toContain("  nothing matches");
    expect(picker.handle(key("enter"))).toBeUndefined();
    picker.handle(key("backspace"));
    picker.handle(key("backspace"));
    expect(picker.lines(plain, 80, 24).filter((l) => /^[ ›] /.test(l))).toEqual(["› alpha  5 chars", "  delta  5 chars"]);
  });

  it("Esc and Ctrl+C cancel", () => {
    expect(new Picker("Pick", items).handle(key("esc"))).toEqual({ kind: "cancelled" });
    expect(new Picker("Pick", items).handle(key("ctrl-c"))).toEqual({ kind: "cancelled" });
  });

  it("a long list shows a window around the selection and says how many more there are", () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ value: `m${i}`, label: `model-${i}` }));
    const picker = new Picker("Pick", many, "m30");
    const lines = picker.lines(plain, 80, 20);
    const rows = lines.filter((l) => /^[ ›] model-/.test(l));
    expect(rows.length).toBeLessThanOrEqual(12);
    expect(rows).toContain("› model-30");
    expect(lines.at(-1)).toMatch(/· \d+ more$/);
    // Every row fits the width.
    for (const line of picker.lines(plain, 30, 20)) expect([...line].length).toBeLessThanOrEqual(29);
  });
});
