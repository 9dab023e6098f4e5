// Which one-word prompts count as a mistyped command, and what they are pointed at.
import { describe, expect, it } from "vitest";
import { commandMeant, editDistance } from "../../lib/cli/mistyped.ts";

describe("mistyped commands", () => {
  it("edit distance counts a swap of neighbours as one edit", () => {
    expect(editDistance("verison", "version")).toBe(1);
    expect(editDistance("agnets", "agents")).toBe(1);
    expect(editDistance("ext", "ext")).toBe(0);
    expect(editDistance("hello", "help")).toBe(2);
  });

  it("near-misses of subcommands point at the subcommand", () => {
    expect(commandMeant("exr")).toBe("zot ext");
    expect(commandMeant("mpc")).toBe("zot mcp");
    expect(commandMeant("agnts")).toBe("zot agents");
    expect(commandMeant("logni")).toBe("zot login");
    expect(commandMeant("logot")).toBe("zot logout");
    expect(commandMeant("completin")).toBe("zot completion");
    expect(commandMeant("upgrad")).toBe("zot upgrade");
  });

  it("commands zot spells differently point at what does that", () => {
    expect(commandMeant("version")).toBe("zot --version");
    expect(commandMeant("Version")).toBe("zot --version");
    expect(commandMeant("help")).toBe("zot --help");
    expect(commandMeant("update")).toBe("zot upgrade");
    expect(commandMeant("doctor")).toBe("zot ext doctor");
    expect(commandMeant("install")).toBe("zot ext install");
    expect(commandMeant("instal")).toBe("zot ext install");
    expect(commandMeant("init")).toBe("zot login");
    expect(commandMeant("config")).toBe("zot --help");
    expect(commandMeant("status")).toBe("zot ext doctor");
  });

  it("ordinary words and anything with punctuation are prompts", () => {
    for (const word of ["hello", "hi", "go", "fix", "edit", "test", "events", "explain", "refactor", "why?", "/help", "v2"]) {
      expect(commandMeant(word), word).toBeUndefined();
    }
  });
});
