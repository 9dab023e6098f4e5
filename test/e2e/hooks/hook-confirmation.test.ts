// The hook events of confirmation and compaction: Notification when zot asks the user to confirm
// a call, PermissionRequest answering that question in the user's place (driven through an ACP
// editor, where zot has someone to ask), and PreCompact/PostCompact around a compaction.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEditor, type Editor } from "../acp/support.ts";
import { bashTurn, hook, hooksWorld, LANGUAGES, type HookWorld } from "./support.ts";

let world: HookWorld | undefined;
let editor: Editor | undefined;
afterEach(async () => {
  if (editor && editor.child.exitCode === null) await editor.close();
  editor = undefined;
  await world?.close();
  world = undefined;
});

async function askingSession(w: HookWorld) {
  editor = startEditor(w, { args: ["--no-yolo"] });
  await editor.initialize();
  const { sessionId } = await editor.agent.request("session/new", { cwd: w.cwd, mcpServers: [] });
  return (text: string) => editor!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
}

const permissionDecision = (behavior: string, message?: string) =>
  ({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior, ...(message ? { message } : {}) } } });

describe.each(LANGUAGES)("confirmation and compaction hooks ($lang)", ({ hook: cmd }) => {
  it("Notification runs when the user is asked to confirm a call, with Claude Code's permission_prompt type", async () => {
    world = await hooksWorld([bashTurn("touch asked.txt"), { text: "ok" }], { Notification: [{ matcher: "permission_prompt", hooks: [hook(cmd("note", "exit", "0"))] }] });
    const prompt = await askingSession(world);
    await prompt("go");
    expect(editor!.permissions).toHaveLength(1);
    await expect.poll(() => world!.records().length).toBe(1);
    expect(world.records()[0]!.input).toMatchObject({ hook_event_name: "Notification", notification_type: "permission_prompt",
      message: "zot needs your permission to use Bash" });
  });

  it("PermissionRequest allow approves without asking; deny refuses with its message; nothing said asks the user", async () => {
    world = await hooksWorld([bashTurn("touch allowed.txt"), { text: "a" }, bashTurn("touch denied.txt", "call_2"), { text: "b" },
      bashTurn("touch asked.txt", "call_3"), { text: "c" }], (reply) => ({ PermissionRequest: [
      { matcher: "Bash", hooks: [hook(cmd("allow", "json", reply("allow", permissionDecision("allow"))), { if: "Bash(touch allowed*)" })] },
      { matcher: "Bash", hooks: [hook(cmd("deny", "json", reply("deny", permissionDecision("deny", "not this one"))), { if: "Bash(touch denied*)" })] },
    ] }));
    const prompt = await askingSession(world);
    await prompt("one");
    await prompt("two");
    expect(existsSync(join(world.cwd, "allowed.txt"))).toBe(true);
    expect(existsSync(join(world.cwd, "denied.txt"))).toBe(false);
    expect(JSON.stringify(world.server.requests[3]!.body)).toContain("not this one");
    expect(editor!.permissions).toHaveLength(0);
    await prompt("three");
    expect(editor!.permissions).toHaveLength(1);
    expect(world.records().map((r) => [r.name, r.input.hook_event_name, r.input.tool_name])).toEqual([
      ["allow", "PermissionRequest", "Bash"], ["deny", "PermissionRequest", "Bash"]]);
  });

  it("PreCompact and PostCompact run around a compaction", async () => {
    world = await hooksWorld([{ text: "first answer" }, { text: "summary of the conversation" }], {
      PreCompact: [{ matcher: "manual", hooks: [hook(cmd("pre", "exit", "0"))] }],
      PostCompact: [{ hooks: [hook(cmd("post", "exit", "0"))] }],
    });
    expect((await world.run(["-p", "hello"])).code).toBe(0);
    const r = await world.run(["-c", "-p", "/compact"]);
    expect(r.code, r.stderr).toBe(0);
    expect(world.records().map((rec) => [rec.name, rec.input.hook_event_name, rec.input.trigger])).toEqual([
      ["pre", "PreCompact", "manual"], ["post", "PostCompact", "manual"]]);
  });
});
