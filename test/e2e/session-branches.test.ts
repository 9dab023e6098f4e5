// Branching conversations end to end, with the real bundle against the scripted model server:
// /fork and /tree in the REPL (tmux), /export and /import in print mode with `zot -c` in a fresh
// $ZOT_HOME, and the rpc commands fork_session, get_session_tree, export_session,
// import_session and btw.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killPanes, Pane } from "./pane.ts";
import { makeWorld, requestText, type World } from "./support.ts";

const worlds: World[] = [];
afterEach(async () => {
  killPanes();
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(script: Parameters<typeof makeWorld>[0] = []): Promise<World> {
  const w = await makeWorld(script);
  worlds.push(w);
  return w;
}

const sessionFiles = (w: World) => readdirSync(join(w.home, "sessions"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));

async function send(pane: Pane, line: string): Promise<void> {
  await pane.submit(line);
}

describe("/fork and /tree in the REPL", () => {
  it("forks at the first prompt with it back in the input line; /tree shows both branches and switching back shows the first branch's second answer", async () => {
    const w = await world([{ text: "Answer one: apples." }, { text: "Answer two: pears." }, { text: "Answer three: plums." }]);
    const pane = await Pane.start(w, []);
    await pane.until("/help for commands");
    await send(pane, "first prompt about apples");
    await pane.until("Answer one: apples.");
    await send(pane, "second prompt about pears");
    await pane.until("Answer two: pears.");

    await send(pane, "/fork");
    const picker = await pane.until("Fork this conversation before which prompt?");
    expect(picker).toContain("first prompt about apples");
    expect(picker).toMatch(/› second prompt about pears/); // the latest is selected
    await pane.keys("Up", "Enter");
    const forked = await pane.until(/the prompt is back in the\s+input line/);
    expect(forked).toMatch(/Forked \S+ before message 0: now in conversation \S+/);
    // The left-out prompt is in the input line: replace it with a different one.
    expect(forked).toMatch(/› first prompt about apples\s*$/m);
    await pane.keys("C-u");
    await send(pane, "a different prompt about plums");
    await pane.until("Answer three: plums.");
    // The fork's model request held nothing of the first branch.
    expect(requestText(w.server.requests[2]!.body)).not.toContain("apples");

    await send(pane, "/tree");
    const tree = await pane.until("Switch to a branch of this conversation");
    expect(tree).toMatch(/first prompt about apples .*4 messages/);
    expect(tree).toMatch(/└ a different prompt about plums .*open · forked at message 0/);
    await pane.keys("Up", "Enter");
    const back = await pane.until(/Resumed conversation \S+, last message/);
    expect(back).toContain("Answer two: pears.");
    expect(sessionFiles(w)).toHaveLength(2);
  });
});

describe("/export and /import", () => {
  it("an export imported into a fresh $ZOT_HOME is shown and continued by zot -c", async () => {
    const a = await world([{ text: "Kiwi noted." }]);
    expect((await a.run(["-p", "remember kiwi"])).code).toBe(0);
    const file = join(a.cwd, "kiwi.zotsession");
    const exported = await a.run(["-c", "-p", `/export ${file}`]);
    expect(exported.stdout).toContain(`Exported this conversation to ${file}.`);

    const b = await world([{ text: "Still kiwi." }]);
    const imported = await b.run(["-p", `/import ${file}`]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/Imported conversation \S+ \(2 messages\)/);
    const pane = await Pane.start(b, ["-c"]);
    const shown = await pane.until("Resumed conversation");
    expect(shown).toContain("› remember kiwi");
    expect(shown).toContain("Kiwi noted.");
    await send(pane, "which fruit?");
    await pane.until("Still kiwi.");
    expect(requestText(b.server.requests[0]!.body)).toContain("remember kiwi");
  });

  it("/import of a damaged file says so and adds nothing", async () => {
    const w = await world([]);
    const run = await w.run(["-p", `/import ${join(w.cwd, "missing.zotsession")}`]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("/import: cannot read");
  });
});

describe("rpc session commands", () => {
  it("fork_session, get_session_tree, export_session, import_session and btw", async () => {
    const w = await world([{ text: "One." }, { text: "Two." }, { text: "Aside answer." }]);
    const child = w.start(["--mode", "rpc"]);
    const replies = new Map<string, Record<string, any>>();
    let buffer = "";
    child.stdout!.on("data", (d) => {
      buffer += d;
      for (let at = buffer.indexOf("\n"); at !== -1; at = buffer.indexOf("\n")) {
        const line = JSON.parse(buffer.slice(0, at));
        buffer = buffer.slice(at + 1);
        if (line.type === "response" && line.id !== undefined) replies.set(String(line.id), line);
      }
    });
    const ask = async (command: Record<string, unknown>) => {
      child.stdin!.write(`${JSON.stringify(command)}\n`);
      const id = String(command.id);
      const deadline = Date.now() + 10_000;
      while (!replies.has(id)) {
        if (Date.now() > deadline) throw new Error(`no response to ${id}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return replies.get(id)!;
    };
    const untilIdle = async () => {
      for (;;) {
        const state = await ask({ type: "get_state", id: `s${Math.random()}` });
        if (!state.data.busy) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await ask({ type: "prompt", id: "p1", message: "first" });
    await untilIdle();
    await ask({ type: "prompt", id: "p2", message: "second" });
    await untilIdle();
    const parent = (await ask({ type: "get_state", id: "st" })).data.session_id;

    const bad = await ask({ type: "fork_session", id: "f0", message_index: 1 });
    expect([bad.success, bad.error]).toEqual([false, expect.stringContaining("is not a user prompt")]);
    const fork = await ask({ type: "fork_session", id: "f1", message_index: 2 });
    expect(fork.data).toEqual({ session_id: expect.any(String), prompt: "second" });
    const tree = await ask({ type: "get_session_tree", id: "t" });
    expect(tree.data.current).toBe(fork.data.session_id);
    expect(tree.data.sessions[0]).toMatchObject({ session_id: parent, messages: 4,
      branches: [{ session_id: fork.data.session_id, parent_id: parent, fork_message_index: 2, messages: 2 }] });

    const aside = await ask({ type: "btw", id: "b", message: "what did I say first?" });
    expect(aside.data).toEqual({ answer: "Aside answer." });
    const exported = await ask({ type: "export_session", id: "e", path: "fork.zotsession" });
    expect(exported.data.path).toBe(join(w.cwd, "fork.zotsession"));
    expect(JSON.parse(readFileSync(exported.data.path, "utf8")).session.parent).toEqual({ id: parent, message_index: 2 });
    const again = await ask({ type: "import_session", id: "i", path: "fork.zotsession" });
    expect([again.success, again.error]).toEqual([false, expect.stringContaining("already has session")]);
    child.stdin!.end();
    await new Promise((r) => child.on("close", r));
  });
});
