// The REPL's question about a project's untrusted extensions, in a real terminal (tmux): asked
// once, with each extension and its permissions; yes is recorded, no leaves them off.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeExtension } from "../extensions/helpers.ts";
import { killPanes, Pane } from "./pane.ts";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  killPanes();
  await world?.close();
  world = undefined;
});

const QUESTION = "Trust this project and start them? Type yes or no, then Enter";

describe("the REPL asks before starting a project's extensions", () => {
  it("shows the extensions and their permissions; y starts them and records the trust, so the next start does not ask", async () => {
    world = await makeWorld([]);
    const started = join(world.home, "..", "started.pid");
    writeExtension(join(world.cwd, ".zot", "extensions"), "lint", { name: "lint", pidFile: started },
      { permissions: { tools: ["read"] } });
    const pane = await Pane.start(world, ["--no-session"]);
    await pane.until(QUESTION);
    const screen = await pane.screen();
    expect(screen).toContain("lint");
    expect(screen).toContain("tools: read");
    expect(existsSync(started)).toBe(false);
    await pane.submit("y", "/help for commands");
    expect(existsSync(started)).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(join(world.home, "trust.json"), "utf8")).projects)).toHaveLength(1);
    await pane.keys("C-d");

    const again = await Pane.start(world, ["--no-session"]);
    await again.until("/help for commands");
    expect(await again.screen()).not.toContain(QUESTION);
  });

  it("n leaves them off and records nothing", async () => {
    world = await makeWorld([]);
    const started = join(world.home, "..", "started.pid");
    writeExtension(join(world.cwd, ".zot", "extensions"), "lint", { name: "lint", pidFile: started });
    const pane = await Pane.start(world, ["--no-session"]);
    await pane.until(QUESTION);
    expect(await pane.screen()).toContain("full access (no permissions declared)");
    await pane.submit("n", "/help for commands");
    expect(existsSync(started)).toBe(false);
    expect(existsSync(join(world.home, "trust.json"))).toBe(false);
  });

  it("a /cd into an untrusted project asks about its extensions, and y starts them there", async () => {
    world = await makeWorld([]);
    const other = join(world.cwd, "..", "other");
    const started = join(world.home, "..", "other.pid");
    writeExtension(join(other, ".zot", "extensions"), "beta", { name: "beta", pidFile: started });
    const pane = await Pane.start(world, ["--no-session"]);
    await pane.until("/help for commands");
    await pane.submit("/cd ../other", QUESTION);
    expect(existsSync(started)).toBe(false);
    await pane.submit("y", "Trusted; recorded for this project.");
    await pane.until(/Working directory .*other: new conversation/);
    expect(existsSync(started)).toBe(true);
  });

  it("takes only yes or no: keys typed ahead for the prompt answer nothing and reach no model; yes then trusts", async () => {
    world = await makeWorld([{ text: "never" }]);
    const started = join(world.home, "..", "started.pid");
    writeExtension(join(world.cwd, ".zot", "extensions"), "lint", { name: "lint", pidFile: started });
    const pane = await Pane.start(world, ["--no-session"]);
    await pane.until(QUESTION);
    await pane.submit("/login anthropic", 'Type yes or no, then Enter (not "/login anthropic")');
    await pane.keys("Enter");
    expect(existsSync(started)).toBe(false);
    await pane.submit("yes", "/help for commands");
    expect(existsSync(started)).toBe(true);
    expect(world.server.requests).toHaveLength(0);
  });
});
