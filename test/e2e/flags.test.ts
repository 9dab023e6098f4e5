// Root flags through the real zot process: what reaches the model server (credentials, system
// prompt, tools), the step cap, session flags and the yolo warning outside interactive mode.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { jsonLines, makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const toolNames = (body: any): string[] => (body.tools ?? []).map((t: { name: string }) => t.name);

describe("root flags", () => {
  it("the API key comes from the flag, else the environment, else $ZOT_HOME/auth.json", async () => {
    world = await makeWorld([{ text: "1" }, { text: "2" }, { text: "3" }]);
    writeFileSync(join(world.home, "auth.json"), JSON.stringify({ anthropic: { api_key: "from-file" } }), { mode: 0o600 });
    await world.run(["-p", "--no-session", "hi"]);
    await world.run(["-p", "--no-session", "hi"], { env: { ANTHROPIC_API_KEY: "from-env" } });
    await world.run(["-p", "--no-session", "--api-key", "from-flag", "hi"], { env: { ANTHROPIC_API_KEY: "from-env" } });
    // The SDK sends the key as x-api-key or as a bearer token, depending on its version.
    const keyOf = (h: Record<string, string>) => h["x-api-key"] ?? h.authorization?.replace(/^Bearer /, "");
    expect(world.server.requests.map((r) => keyOf(r.headers))).toEqual(["from-file", "from-env", "from-flag"]);
  });

  it("--system-prompt replaces and --append-system-prompt extends what the server receives", async () => {
    world = await makeWorld([{ text: "ok" }]);
    const r = await world.run(["-p", "--system-prompt", "BASE PROMPT", "--append-system-prompt", "EXTRA ONE", "--append-system-prompt", "EXTRA TWO", "hi"]);
    expect(r.code).toBe(0);
    const system = JSON.stringify(world.server.requests[0]!.body.system);
    expect(system).toMatch(/BASE PROMPT[\s\S]*EXTRA ONE[\s\S]*EXTRA TWO/);
  });

  it("--tools selects built-in tools and --no-tools offers none", async () => {
    world = await makeWorld([{ text: "a" }, { text: "b" }]);
    await world.run(["-p", "--tools", "read,bash", "hi"]);
    await world.run(["-p", "--no-tools", "hi"]);
    expect(toolNames(world.server.requests[0]!.body).sort()).toEqual(["bash", "read"]);
    expect(toolNames(world.server.requests[1]!.body)).toEqual([]);
    const bad = await world.run(["-p", "--tools", "read,teleport", "hi"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^zot: unknown tool teleport/m);
  });

  it("--max-steps caps the model steps of a prompt and the run fails with exit 1", async () => {
    const call = { tool_calls: [{ name: "bash", args: { command: "echo again" } }], stop: "tool_use" };
    world = await makeWorld([call, call, call]);
    const r = await world.run(["-p", "--max-steps", "2", "loop forever"]);
    expect(world.server.requests).toHaveLength(2);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^zot: stopped after 2 model steps/m);
  });

  it("--no-session writes no session; json mode frames the run with session_start and session_end", async () => {
    world = await makeWorld([{ text: "ok" }]);
    const r = await world.run(["--json", "--no-session", "hi"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(world.home, "sessions")) ? readdirSync(join(world.home, "sessions")) : []).toEqual([]);
    const types = jsonLines(r.stdout).map((e) => e.type);
    expect(types[0]).toBe("session");
    expect(types.indexOf("session_start")).toBeLessThan(types.indexOf("user_prompt_submit"));
    expect(types.slice(-2)).toEqual(["session_end", "done"]);
  });

  it("--resume ID reopens that session; an unknown id is a clear error", async () => {
    world = await makeWorld([{ text: "first answer" }, { text: "resumed answer" }]);
    const first = jsonLines((await world.run(["--json", "remember PURPLE"])).stdout);
    const id = first[0]!.session_id as string;
    const r = await world.run(["-p", "--resume", id, "what colour?"]);
    expect(r.stdout).toBe("resumed answer\n");
    expect(JSON.stringify(world.server.requests[1]!.body.messages)).toContain("remember PURPLE");
    const unknown = await world.run(["-p", "--resume", "no-such-session", "hi"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no-such-session");
  });

  it("--no-yolo outside interactive mode warns on stderr and runs tools freely", async () => {
    world = await makeWorld([{ tool_calls: [{ name: "bash", args: { command: "echo ran" } }], stop: "tool_use" }, { text: "done" }]);
    const r = await world.run(["--json", "--no-yolo", "go"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^zot: warning: .*yolo/im);
    const result = jsonLines(r.stdout).find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ status: "completed", executed: true });
    expect(jsonLines(r.stdout).find((e) => e.type === "permission_decision")).toMatchObject({ decision: "approved", source: "policy" });
  });
});
