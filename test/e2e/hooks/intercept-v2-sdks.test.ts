// zot's own extensions get every power a hook has: the same extension on the TypeScript SDK and
// on the Python SDK (test/fixtures/intercept-v2) uses each intercept_v2 point against the real
// zot: tool_call's allow/ask and additional_context, tool_result's replacement and context,
// user_prompt_submit's block and context, before_agent_end's continuation, tool_confirmation's
// answer in the user's place (asked through an ACP editor, where zot has someone to ask), and
// the longer deadline its subscription asks for (shown by doctor).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, ROOT, type World } from "../support.ts";
import { startEditor, type Editor } from "../acp/support.ts";
import { bashTurn, sentToModel } from "./support.ts";

const FIXTURES = join(ROOT, "test", "fixtures", "intercept-v2");
const SDKS = [{ sdk: "TypeScript", name: "v2-ts", dir: join(FIXTURES, "ts") }, { sdk: "Python", name: "v2-py", dir: join(FIXTURES, "py") }];

let world: World | undefined;
let editor: Editor | undefined;
afterEach(async () => {
  if (editor && editor.child.exitCode === null) await editor.close();
  editor = undefined;
  await world?.close();
  world = undefined;
});

describe.each(SDKS)("intercept_v2 from the $sdk SDK", ({ name, dir }) => {
  it("tool_call adds context; tool_result replaces an output or adds context; user_prompt_submit adds context", async () => {
    world = await makeWorld([bashTurn("echo plain"), bashTurn("echo SECRET=$((40 + 2))", "call_2"), { text: "done" }]);
    const r = await world.run(["--ext", dir, "-p", "go"]);
    expect(r.code).toBe(0);
    expect(sentToModel(world, 0)).toContain(`ctx-from-prompt (${name})`);
    expect(sentToModel(world, 1)).toContain(`ctx-from-call (${name})`);
    expect(sentToModel(world, 1)).toContain(`ctx-from-result (${name}, bash completed)`);
    expect(sentToModel(world, 2)).toContain(`[hidden by ${name}]`);
    expect(sentToModel(world, 2)).not.toContain("SECRET=42");
  });

  it("user_prompt_submit blocks a prompt: the model is never asked", async () => {
    world = await makeWorld([{ text: "never" }]);
    const r = await world.run(["--ext", dir, "-p", "a forbidden prompt"]);
    expect(r.code).not.toBe(0);
    expect(world.server.requests).toHaveLength(0);
    expect(r.stderr).toContain(`prompt refused by ${name}`);
  });

  it("before_agent_end continues the agent with a prompt", async () => {
    world = await makeWorld([{ text: "CONTINUE please" }, { text: "finished" }]);
    const r = await world.run(["--ext", dir, "-p", "go"]);
    expect(r.code).toBe(0);
    expect(world.server.requests).toHaveLength(2);
    expect(sentToModel(world, 1)).toContain(`keep going (${name})`);
  });

  it("tool_call ask where nobody can confirm denies the call with its reason", async () => {
    world = await makeWorld([bashTurn("touch ASKME.txt"), { text: "done" }]);
    expect((await world.run(["--ext", dir, "-p", "go"])).code).toBe(0);
    expect(existsSync(join(world.cwd, "ASKME.txt"))).toBe(false);
    expect(sentToModel(world, 1)).toContain(`${name} wants a human`);
  });

  it("with an editor to ask: allow skips the question, tool_confirmation answers it, ask asks even in yolo mode", async () => {
    world = await makeWorld([
      bashTurn("touch ALLOWME.txt"), { text: "a" }, bashTurn("touch CONFIRMME.txt", "call_2"), { text: "b" },
      bashTurn("touch plain.txt", "call_3"), { text: "c" }, bashTurn("touch ASKME.txt", "call_4"), { text: "d" },
    ]);
    editor = startEditor(world, { args: ["--no-yolo", "--ext", dir] });
    await editor.initialize();
    const { sessionId } = await editor.agent.request("session/new", { cwd: world.cwd, mcpServers: [] });
    const prompt = (text: string) => editor!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
    await prompt("one");
    await prompt("two");
    expect(existsSync(join(world.cwd, "ALLOWME.txt"))).toBe(true);
    expect(existsSync(join(world.cwd, "CONFIRMME.txt"))).toBe(true);
    expect(editor.permissions).toHaveLength(0);
    await prompt("three");
    expect(editor.permissions).toHaveLength(1);
    await editor.agent.request("session/set_mode", { sessionId, modeId: "yolo" });
    await prompt("four");
    expect(editor.permissions).toHaveLength(2);
    expect(existsSync(join(world.cwd, "ASKME.txt"))).toBe(true);
  });

  it("doctor shows the longer interception deadline its subscription asked for", async () => {
    world = await makeWorld();
    const r = await world.run(["ext", "doctor", "--ext", dir]);
    expect(r.stdout).toContain("deadline 20000 ms (asked for)");
  });
});
