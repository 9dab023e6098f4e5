// Model ids are checked where they enter: the --model flag, ZOT_MODEL, /model, rpc set_model
// and config.json. One no provider accepts is never sent and never saved.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { rpc } from "./rpc-client.ts";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const configOf = (w: World) => join(w.home, "config.json");
const readConfigText = (w: World) => (existsSync(configOf(w)) ? readFileSync(configOf(w), "utf8") : undefined);

describe("model ids are validated at every entry point", () => {
  it('rpc set_model "" is refused and the saved config is unchanged', async () => {
    world = await makeWorld();
    writeFileSync(configOf(world), `${JSON.stringify({ provider: "anthropic", model: "claude-opus-4-7", theme: "dark" }, null, 2)}\n`);
    const before = readConfigText(world);
    const c = rpc(world);
    for (const model of ["", "  ", "openai/", "two words"]) {
      const reply = await c.call({ type: "set_model", model });
      expect(reply).toMatchObject({ success: false, error: expect.stringMatching(/is not a valid model id: .*; the model is unchanged$/) });
    }
    expect((await c.call({ type: "get_state" })).data).toMatchObject({ provider: "anthropic", model: "claude-sonnet-4-6" });
    c.end();
    expect(await c.exited).toBe(0);
    expect(readConfigText(world)).toBe(before);
  });

  it("--model and ZOT_MODEL with an unusable id are usage errors (exit 2); nothing is saved", async () => {
    world = await makeWorld([{ text: "never" }]);
    const empty = await world.run(["-p", "--model", "", "hi"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^zot: --model needs a value/m);
    const flag = await world.run(["-p", "--model", "gpt 4", "hi"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^zot: --model "gpt 4" is not a valid model id: a model id must not contain spaces/m);
    const env = await world.run(["-p", "hi"], { env: { ZOT_MODEL: "claude sonnet" } });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/^zot: ZOT_MODEL "claude sonnet" is not a valid model id: a model id must not contain spaces/m);
    expect(world.server.requests).toHaveLength(0);
    expect(readConfigText(world)).toBeUndefined();
  });

  it("/model with an unusable id fails and keeps the model; the config is not written", async () => {
    world = await makeWorld();
    const r = await world.run(["-p", "/model bad id"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('zot: "bad id" is not a valid model id: a model id must not contain spaces or control characters; the model is unchanged');
    expect(readConfigText(world)).toBeUndefined();
  });

  it("a config.json that already holds an unusable model is ignored with a warning and left as it is", async () => {
    world = await makeWorld([{ text: "ok" }]);
    writeFileSync(configOf(world), `${JSON.stringify({ provider: "anthropic", model: "" })}\n`);
    const before = readConfigText(world);
    const r = await world.run(["-p", "hi"], { env: { ZOT_MODEL: "" } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`zot: warning: ${configOf(world)}: the saved model "" is not a valid model id (a model id must not be empty); ignoring it`);
    expect(world.server.requests[0]!.body.model).toBe("claude-sonnet-5-5");
    expect(readConfigText(world)).toBe(before);
  });

  it("a one-shot /model applies to that run only: config.json keeps the user's choice", async () => {
    world = await makeWorld();
    writeFileSync(configOf(world), `${JSON.stringify({ provider: "anthropic", model: "claude-opus-4-7" }, null, 2)}\n`);
    const before = readConfigText(world);
    const r = await world.run(["-p", "/model claude-haiku-4-5"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("for this run only");
    expect(readConfigText(world)).toBe(before);
  });

  it("a model the provider's list does not have is used for the session but not saved", async () => {
    world = await makeWorld([{ text: "ok" }]);
    const c = rpc(world);
    const reply = await c.call({ type: "command", name: "model", args: "my-own-finetune" });
    expect(reply).toMatchObject({ success: true });
    c.end();
    await c.exited;
    expect(readConfigText(world) ?? "").not.toContain("my-own-finetune");
  });
});
