// Themes in the REPL: the real bundle in tmux with colour on and a truecolor terminal; a heading
// takes the theme's colour, /theme switches at once and is kept for the next start.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killPanes, Pane } from "./pane.ts";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  killPanes();
  await world?.close();
  world = undefined;
});

const COLOUR = { NO_COLOR: "", COLORTERM: "truecolor" };

describe("themes in the REPL", () => {
  it("a heading is drawn in the theme's colour; /theme light switches at once, is saved, and the next start keeps it", async () => {
    world = await makeWorld([{ text: "# First\n\nbody\n" }, { text: "# Second\n\nbody\n" }, { text: "# Third\n\nbody\n" }]);
    const pane = await Pane.start(world, ["--no-session"], COLOUR);
    await pane.until("/help for commands");
    await pane.submit("one", "First");
    expect(await pane.text(true)).toMatch(/\x1b\[1m\x1b\[36mFirst/); // dark: the ANSI cyan it always was
    await pane.submit("/theme light", "Theme light; zot starts with it from now on.");
    await pane.submit("two", "Second");
    expect(await pane.text(true)).toMatch(/\x1b\[38;2;0;95;135mSecond/);
    expect(JSON.parse(readFileSync(join(world.home, "config.json"), "utf8"))).toMatchObject({ theme: "light" });
    await pane.keys("C-d");
    expect(await pane.exitCode()).toBe(0);

    const again = await Pane.start(world, ["--no-session"], COLOUR);
    await again.until("/help for commands");
    await again.submit("three", "Third");
    expect(await again.text(true)).toMatch(/\x1b\[38;2;0;95;135mThird/);
  });

  it("/theme without a name picks from the themes; an unknown name is refused", async () => {
    world = await makeWorld();
    const pane = await Pane.start(world, ["--no-session", "--theme", "light"], COLOUR);
    await pane.until("/help for commands");
    const listed = await pane.submit("/theme", "Theme");
    expect(listed).toMatch(/› light {2}current/);
    await pane.keys("Up", "Enter");
    await pane.until("Theme dark; zot starts with it from now on.");
    await pane.submit("/theme solar", 'zot: no theme "solar" (themes: dark, light)');
  });

  it("with NO_COLOR the REPL writes no colour, whatever the theme", async () => {
    world = await makeWorld([{ text: "# Plain\n\nbody\n" }]);
    const pane = await Pane.start(world, ["--no-session", "--theme", "light"], { NO_COLOR: "1", COLORTERM: "truecolor" });
    await pane.until("/help for commands");
    await pane.submit("go", "Plain");
    expect(await pane.text(true)).not.toMatch(/\x1b\[[\d;]*m/);
  });

  it("an installed theme bundle (extension.json and theme.json, no exec) colours the heading, spawns nothing, and is listed with its theme", async () => {
    world = await makeWorld([{ text: "# Title\n\nbody\n" }, { text: "# Again\n\nbody\n" }]);
    const source = join(world.cwd, "..", "green-theme");
    mkdirSync(source, { recursive: true });
    writeFileSync(join(source, "extension.json"), JSON.stringify({ name: "green-theme", version: "1.0.0" }));
    writeFileSync(join(source, "theme.json"), JSON.stringify({ name: "green", colors: { heading: "#00ff00" } }));
    const installed = await world.run(["ext", "install", "--yes", source]);
    expect(installed.code, installed.stderr).toBe(0);
    expect((await world.run(["ext", "list"])).stdout).toMatch(/green-theme .*themes: green/);
    const doctor = await world.run(["ext", "doctor"]);
    expect(doctor.stdout).toContain("theme bundle (runs no code): green");

    const truecolor = await Pane.start(world, ["--no-session", "--theme", "green"], COLOUR);
    await truecolor.until("/help for commands");
    await truecolor.submit("one", "Title");
    expect(await truecolor.text(true)).toMatch(/\x1b\[38;2;0;255;0mTitle/);
    killPanes();

    const xterm256 = await Pane.start(world, ["--no-session", "--theme", "green"], { NO_COLOR: "", TERM: "xterm-256color" });
    await xterm256.until("/help for commands");
    await xterm256.submit("two", "Again");
    expect(await xterm256.text(true)).toMatch(/\x1b\[38;5;46mAgain/);
    killPanes();

    // A disabled bundle offers no theme.
    expect((await world.run(["ext", "disable", "green-theme"])).code).toBe(0);
    const disabled = await Pane.start(world, ["--no-session", "--theme", "green"], COLOUR);
    await disabled.until('zot: warning: no theme "green" (themes: dark, light); using dark');
  });

  it("without a chosen theme the default follows the terminal's background, as it answers an OSC 11 query", async () => {
    world = await makeWorld([{ text: "# Light\n\nbody\n" }]);
    const pane = await Pane.start(world, ["--no-session"], COLOUR, [["set", "-g", "window-style", "bg=white"]]);
    await pane.until("/help for commands");
    await pane.submit("go", "Light");
    expect(await pane.text(true)).toMatch(/\x1b\[38;2;0;95;135mLight/);
  });
});
