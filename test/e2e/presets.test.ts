// A cloud preset end to end: the real bundle against the scripted model server acting as the
// cloud (its OpenAI-compatible chat under /v1), chosen through the environment, with the key
// from the cloud's own variable; and `zot login --provider groq` checking a key with it.
import { afterEach, describe, expect, it } from "vitest";
import { jsonLines, makeWorld, type World } from "./support.ts";

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
});
