// bash in the editor's terminal: when the editor offers `terminal`, zot's bash tool runs its
// command there (the editor's own process here), shows the terminal in the tool call, reports the
// output and exit code to the model, kills it at the timeout or on cancel, and always releases it.
// Without the capability bash runs in zot's own shell.
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support.ts";
import { startEditor, toolUpdates, type Editor } from "./support.ts";

let world: World | undefined;
let editor: Editor | undefined;
afterEach(async () => {
  if (editor && editor.child.exitCode === null) await editor.close();
  for (const t of editor?.terminals.values() ?? []) if (!t.exit) t.process.kill("SIGKILL");
  editor = undefined;
  await world?.close();
  world = undefined;
});

const bash = (id: string, args: Record<string, unknown>) => ({ tool_calls: [{ id, name: "bash", args }], stop: "tool_use" as const });
const sent = (w: World, n: number) => JSON.stringify(w.server.requests[n]?.body.messages ?? []);

async function open(script: Parameters<typeof makeWorld>[0], terminal = true) {
  world = await makeWorld(script);
  editor = startEditor(world);
  await editor.initialize({ terminal });
  return (await editor.agent.request("session/new", { cwd: world.cwd, mcpServers: [] })).sessionId;
}

describe("the editor's terminal", () => {
  it("runs the model's bash command in the editor, shows it in the tool call, and gives the model its output and exit code", async () => {
    const sessionId = await open([bash("b1", { command: "echo from-the-editor; pwd; exit 3" }), { text: "ok" }]);
    const done = await editor!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run" }] });
    expect(done.stopReason).toBe("end_turn");
    const [terminal] = [...editor!.terminals.values()];
    expect(terminal!.request.args).toEqual(["-c", "echo from-the-editor; pwd; exit 3"]);
    expect(terminal!.request.cwd).toBe(world!.cwd);
    expect(terminal!.released).toBe(true);
    const updates = toolUpdates(editor!, sessionId, "b1");
    const shown = (u: object) => "content" in u && Array.isArray(u.content) && u.content.some((c: { type: string; terminalId?: string }) => c.type === "terminal" && c.terminalId === "term-1");
    // Shown while it runs (before the result), and still shown with the result.
    expect(updates.findIndex(shown)).toBeLessThan(updates.length - 1);
    expect(updates.at(-1)).toMatchObject({ status: "failed" });
    expect(shown(updates.at(-1)!)).toBe(true);
    expect(sent(world!, 1)).toContain("from-the-editor");
    expect(sent(world!, 1)).toContain("[Exit code 3]");
  });

  it("a command past its timeout is killed in the editor and released; the model is told it timed out", async () => {
    const sessionId = await open([bash("t1", { command: "sleep 30", timeout: 0.5 }), { text: "ok" }]);
    await editor!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] });
    const [terminal] = [...editor!.terminals.values()];
    expect(terminal!.killed).toBe(true);
    expect(terminal!.released).toBe(true);
    expect(sent(world!, 1)).toContain("[Timed out after 0.5 s");
  });

  it("session/cancel during a command kills and releases its terminal; the prompt ends cancelled", async () => {
    const sessionId = await open([bash("c1", { command: "sleep 30" })]);
    const prompt = editor!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] });
    await editor!.waitFor((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "c1" && JSON.stringify(u).includes("terminal"));
    await editor!.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    const [terminal] = [...editor!.terminals.values()];
    expect(terminal!.killed).toBe(true);
    expect(terminal!.released).toBe(true);
  });

  it("without the capability bash runs in zot's own shell", async () => {
    const sessionId = await open([bash("l1", { command: "echo local-shell" }), { text: "ok" }], false);
    await editor!.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run" }] });
    expect(editor!.terminals.size).toBe(0);
    expect(sent(world!, 1)).toContain("local-shell");
  });
});
