// Escape 10 against the built CLI: manifest fields and extension messages with escape sequences
// reach stdout and stderr as plain text in `zot ext list`, `zot ext doctor` and print mode.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeExtension } from "../extensions/helpers.ts";
import { makeWorld, type World } from "./support.ts";

const ESC = "\u001b";
let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("extension text on the terminal", () => {
  it("zot ext list and doctor print a manifest's version and description and a bad hello name without escapes", async () => {
    world = await makeWorld();
    writeExtension(join(world.home, "extensions"), "fancy", { name: "fancy", helloName: `evil${ESC}[2J` },
      { version: `1.0${ESC}[8m`, description: `safe${ESC}]0;owned\u0007 tool` });
    const list = await world.run(["ext", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/fancy\s+1\.0\s+global.*safe tool/);
    expect(list.stdout).not.toContain(ESC);
    const doctor = await world.run(["ext", "doctor"]);
    expect(doctor.stdout).toContain('hello name "evil" does not match the manifest name "fancy"');
    expect(doctor.stdout).not.toContain(ESC);
  });

  it("print mode's notes on stderr", async () => {
    world = await makeWorld();
    writeExtension(join(world.home, "extensions"), "noisy", { name: "noisy",
      register: [{ type: "register_command", name: "hi", description: "hi" }],
      on: { command_invoked: `ctx.send({type:"notify",level:"warn",message:"${"\\u001b"}[2K${"\\u001b"}[1Afaked"}); ctx.send({type:"command_response",id:msg.id,action:"none"})` } });
    const r = await world.run(["-p", "/hi"]);
    expect(r.stderr).toContain("[noisy] warn: faked");
    expect(r.stderr).not.toContain(ESC);
  });
});
