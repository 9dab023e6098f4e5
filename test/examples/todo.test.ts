// examples/extensions/todo (Python on zot_ext) through the real host: doctor, the model's
// todo_add and todo_list tools persisting todos.json in data_dir, /todo add, and the panel
// over rpc. It is installed into the temp $ZOT_HOME first, as a user would, so its data_dir is
// that copy and the example folder in the checkout stays clean.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { rpc } from "../e2e/rpc-client.ts";
import { makeWorld, requestText, type World } from "../e2e/support.ts";
import { doctor, EXAMPLES } from "./support.ts";

const TODO = join(EXAMPLES, "todo");
const FOOTER = "↑/↓ move · x done/undone · d delete · esc close";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** Installs the example into the world's $ZOT_HOME; returns its data_dir (the installed folder). */
async function install(w: World): Promise<string> {
  const r = await w.run(["ext", "install", "--yes", TODO]);
  expect(r.code).toBe(0);
  const dir = join(w.home, "extensions", "todo");
  expect(existsSync(join(dir, "extension.json"))).toBe(true);
  return dir;
}

const todos = (dir: string) => JSON.parse(readFileSync(join(dir, "todos.json"), "utf8"));

describe("todo example", () => {
  it("zot ext doctor reports it ready with /todo and the todo_add and todo_list tools", async () => {
    world = await makeWorld();
    const entry = await doctor(world, TODO);
    expect(entry).toMatchObject({ name: "todo", commands: ["todo"] });
    expect(entry.tools.map((t) => t.name)).toEqual(["todo_add", "todo_list"]);
    expect(existsSync(join(TODO, "todos.json"))).toBe(false);
  });

  it("the model adds a todo and lists it; todos.json in data_dir keeps it for the next run", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "todo_add", args: { text: "buy milk" } }], stop: "tool_use" },
      { tool_calls: [{ name: "todo_list", args: {} }], stop: "tool_use" },
      { text: "you have one thing to do" },
    ]);
    const dir = await install(world);
    const r = await world.run(["-p", "remember to buy milk, then show my list"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("you have one thing to do\n");
    expect(requestText(world.server.requests[1]!.body)).toContain("Added todo #1: buy milk");
    expect(requestText(world.server.requests[2]!.body)).toContain("1. [ ] buy milk");
    expect(todos(dir)).toEqual([{ text: "buy milk", done: false }]);

    const added = await world.run(["-p", "/todo add call the bank"]);
    expect(added.stdout).toBe("added todo #2: call the bank\n");
    expect(todos(dir)).toEqual([{ text: "buy milk", done: false }, { text: "call the bank", done: false }]);
    const usage = await world.run(["-p", "/todo add"]);
    expect(usage.code).not.toBe(0);
    expect(usage.stderr).toContain("usage: /todo add <text>");
  });

  it("a todos.json that is not a todo list is reported and left as it was", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "todo_add", args: { text: "x" } }], stop: "tool_use" },
      { text: "could not add" },
    ]);
    const dir = await install(world);
    writeFileSync(join(dir, "todos.json"), '{"not": "a list"}');
    expect((await world.run(["-p", "add x"])).stdout).toBe("could not add\n");
    expect(requestText(world.server.requests[1]!.body)).toContain("is not a JSON array of todos");
    expect(readFileSync(join(dir, "todos.json"), "utf8")).toBe('{"not": "a list"}');
  });

  it("/todo opens a panel over rpc: down moves, x toggles done, d deletes, esc closes", async () => {
    world = await makeWorld();
    const dir = await install(world);
    writeFileSync(join(dir, "todos.json"), JSON.stringify([{ text: "write tests", done: false }, { text: "ship", done: false }]));
    const c = rpc(world);
    const renders = () => c.lines.filter((l) => l.type === "ext_panel_render");
    const key = async (k: string, text?: string) => {
      const seen = renders().length;
      expect(await c.call({ type: "panel_key", panel_id: "todo", key: k, ...(text ? { text } : {}) })).toMatchObject({ success: true });
      return c.waitFor((l) => l.type === "ext_panel_render" && renders().indexOf(l) >= seen);
    };

    expect(await c.call({ type: "command", name: "todo" })).toMatchObject({ success: true, data: { action: "open_panel" } });
    expect(await c.waitFor((l) => l.type === "ext_panel_open")).toMatchObject({
      extension: "todo", panel_id: "todo", title: "Todos (0/2 done)", lines: ["› [ ] write tests", "  [ ] ship"], footer: FOOTER,
    });
    expect(await key("down")).toMatchObject({ panel_id: "todo", lines: ["  [ ] write tests", "› [ ] ship"] });
    expect(await key("rune", "x")).toMatchObject({ title: "Todos (1/2 done)", lines: ["  [ ] write tests", "› [x] ship"] });
    expect(todos(dir)).toEqual([{ text: "write tests", done: false }, { text: "ship", done: true }]);
    expect(await key("up")).toMatchObject({ lines: ["› [ ] write tests", "  [x] ship"] });
    expect(await key("rune", "d")).toMatchObject({ title: "Todos (1/1 done)", lines: ["› [x] ship"] });
    expect(todos(dir)).toEqual([{ text: "ship", done: true }]);

    expect(await c.call({ type: "panel_key", panel_id: "todo", key: "esc" })).toMatchObject({ success: true, data: { closed: true } });
    expect(await c.waitFor((l) => l.type === "ext_panel_close")).toMatchObject({ extension: "todo", panel_id: "todo" });
    // The extension got panel_close: a todo added now must not re-open the panel with a render.
    const seen = renders().length;
    expect(await c.call({ type: "command", name: "todo", args: "add after close" })).toMatchObject({ success: true });
    expect(await c.call({ type: "panel_key", panel_id: "todo", key: "down" })).toMatchObject({ success: false, error: expect.stringContaining("no open panel") });
    c.end();
    expect(await c.exited).toBe(0);
    expect(renders()).toHaveLength(seen);
    expect(c.lines.filter((l) => l.type === "ext_panel_open")).toHaveLength(1);
    expect(todos(dir)).toEqual([{ text: "ship", done: true }, { text: "after close", done: false }]);
  });
});
