// $ZOT_HOME/models.json end to end: --list-models shows the user's model, and a run prices its
// usage with the user's prices. The real bundle against the scripted model server.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { jsonLines, makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("models.json", () => {
  it("its models are listed and priced, and a broken field is a warning that does not stop the run", async () => {
    world = await makeWorld([{ text: "ok", usage: { input: 1_000_000, output: 500_000 } }], "openai");
    writeFileSync(join(world.home, "models.json"), JSON.stringify({
      openai: { "my-finetune": { context_window: 300_000, cost: { input: 2, output: 8 }, max_output: "big" } },
    }));
    const listed = await world.run(["--list-models", "--provider", "openai"]);
    expect(listed.stdout).toMatch(/^openai\/my-finetune\tcontext 300000\t\$2\/\$8 per Mtok$/m);
    expect(listed.stderr).toContain("openai/my-finetune: max_output must be a positive whole number, not \"big\"; it is ignored");

    const run = await world.run(["--mode", "json", "--no-session", "--model", "my-finetune", "hi"]);
    expect(run.code).toBe(0);
    // 1M input tokens at $2 and 0.5M output at $8.
    expect(jsonLines(run.stdout).find((l) => l.type === "usage")).toMatchObject({ cost_usd: 6 });
  });
});
