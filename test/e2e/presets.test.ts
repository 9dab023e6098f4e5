// A cloud preset end to end: the real bundle against the scripted model server acting as the
// cloud (its OpenAI-compatible chat under /v1), chosen through the environment, with the key
// from the cloud's own variable; and `zot login --provider groq` checking a key with it.
import { afterEach, describe, expect, it } from "vitest";
import { jsonLines, KIT, makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("cloud presets", () => {
  it("a json run with ZOT_PROVIDER=groq: a tool round trip under groq's name, its key as a bearer token", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "bash", args: { command: "echo from-groq" } }], stop: "tool_use" },
      { text: "it printed from-groq" },
    ], "openai");
    const run = await world.run(["--mode", "json", "--no-session", "say it"], {
      env: { ZOT_PROVIDER: "groq", ZOT_MODEL: "", GROQ_API_KEY: "gsk-e2e-secret" },
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines[0]).toMatchObject({ type: "session", provider: "groq", model: "openai/gpt-oss-120b" });
    expect(lines.find((l) => l.type === "tool_result")).toMatchObject({ tool_name: "bash", status: "completed" });
    expect(lines.at(-1)).toMatchObject({ type: "done" });
    expect(run.stdout).not.toContain("gsk-e2e-secret");
    expect(world.server.requests.map((r) => [r.path, r.headers.authorization, r.body.model])).toEqual([
      ["/v1/chat/completions", "Bearer gsk-e2e-secret", "openai/gpt-oss-120b"],
      ["/v1/chat/completions", "Bearer gsk-e2e-secret", "openai/gpt-oss-120b"],
    ]);
  });

  it("zot login --provider groq --with-api-key checks the key on {base}/models and --status names its source", async () => {
    world = await makeWorld([], "openai");
    world.server.acceptKeys = ["gsk-login"];
    const login = await world.run(["login", "--provider", "groq", "--with-api-key", "--base-url", `${world.server.url}/v1`], { input: "gsk-login\n" });
    expect(login.code).toBe(0);
    expect(login.stderr).toContain("Logged in to groq");
    expect(world.server.requests.map((r) => [r.method, r.path])).toEqual([["GET", "/v1/models"]]);
    const status = await world.run(["login", "--status"], { env: { MOONSHOT_API_KEY: "sk-moon" } });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^groq +.*auth\.json$/m);
    expect(status.stdout).toMatch(/^kimi +MOONSHOT_API_KEY \(environment\)$/m);
    expect(status.stdout).not.toContain("gsk-login");
  });

  it("kimi-k3: a deferred tool activated by a tool result is declared after that result, and the model can call it", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "load_secret", args: {} }], stop: "tool_use" },
      { tool_calls: [{ name: "secret", args: {} }], stop: "tool_use" },
      { text: "42 it is" },
    ], "openai");
    const run = await world.run(["-p", "-e", KIT, "find the secret"], { env: { ZOT_PROVIDER: "kimi", ZOT_MODEL: "kimi-k3", MOONSHOT_API_KEY: "sk-moon" } });
    expect(run.stdout).toBe("42 it is\n");
    const bodies = world.server.requests.map((r) => r.body);
    const topLevel = (i: number) => bodies[i].tools.map((t: any) => t.function.name);
    const declared = (i: number) => bodies[i].messages.filter((m: any) => Array.isArray(m.tools)).flatMap((m: any) => m.tools.map((t: any) => t.function.name));
    expect(topLevel(0)).toContain("load_secret");
    expect(topLevel(0)).not.toContain("secret");
    expect(declared(0)).toEqual([]);
    for (const i of [1, 2]) {
      expect(topLevel(i)).not.toContain("secret");
      expect(declared(i)).toEqual(["secret"]);
    }
    const messages = bodies[1].messages;
    const at = messages.findIndex((m: any) => Array.isArray(m.tools));
    expect(messages[at - 1]).toMatchObject({ role: "tool", content: expect.stringContaining("secret enabled") });
    expect(JSON.stringify(bodies[2].messages)).toContain("the secret is 42");
    expect(world.server.requests[0]!.headers.authorization).toBe("Bearer sk-moon");
  });
});
