// A one-word prompt that looks like a command is refused before any model request; `--` and a
// prompt of several words go to the model as before. Through the real bundle and model server.
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, requestText, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("a prompt that looks like a mistyped command", () => {
  it("`zot version` exits 2 with the command meant and makes no model request", async () => {
    world = await makeWorld([{ text: "should not be asked" }]);
    const r = await world.run(["version"]);
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toBe("zot: `version` is not a command; did you mean `zot --version`? To send it as a prompt: zot -- version\n");
    expect(world.server.requests).toHaveLength(0);
  });

  it("near-misses of subcommands and common commands point at the right one, in print mode too", async () => {
    world = await makeWorld();
    const cases: Array<[string[], string]> = [
      [["-p", "verison"], "zot --version"], [["exr"], "zot ext"], [["agnets"], "zot agents"], [["completoin"], "zot completion"],
      [["help"], "zot --help"], [["update"], "zot upgrade"], [["doctor"], "zot ext doctor"], [["install"], "zot ext install"],
    ];
    for (const [args, meant] of cases) {
      const r = await world.run(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain(`did you mean \`${meant}\`?`);
    }
    expect(world.server.requests).toHaveLength(0);
  });

  it("`zot -- version` sends the word to the model", async () => {
    world = await makeWorld([{ text: "v1" }]);
    const r = await world.run(["-p", "--", "version"]);
    expect(r).toMatchObject({ code: 0, stdout: "v1\n" });
    expect(world.server.requests).toHaveLength(1);
    expect(requestText(world.server.requests[0]!.body)).toContain('"text":"version"');
  });

  it("several words, and one word that is no command's near-miss, are prompts as before", async () => {
    world = await makeWorld([{ text: "two words" }, { text: "one word" }]);
    expect(await world.run(["-p", "hello", "world"])).toMatchObject({ code: 0, stdout: "two words\n" });
    expect(await world.run(["-p", "hello"])).toMatchObject({ code: 0, stdout: "one word\n" });
    expect(requestText(world.server.requests[0]!.body)).toContain("hello world");
    expect(world.server.requests).toHaveLength(2);
  });
});
