// examples/extensions/clock (plain Node, raw protocol) through the real host: doctor, /time in
// print mode, /timer over rpc, and the `now` tool called by the scripted model.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { rpc } from "../e2e/rpc-client.ts";
import { makeWorld, requestText, type World } from "../e2e/support.ts";
import { doctor, EXAMPLES } from "./support.ts";

const CLOCK = join(EXAMPLES, "clock");

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The day and hour in `timeZone` as the example writes them: "Monday, 30 November 2026 at 19:". */
const dayAndHour = (date: Date, timeZone: string) =>
  `${new Intl.DateTimeFormat("en-GB", { dateStyle: "full", timeZone }).format(date)} at ${
    new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone }).format(date)}:`;

/** Runs `/time [zone]` and checks the day and hour against the clock around the run. */
async function time(w: World, args: string, tz: string, zone: string): Promise<string> {
  const before = new Date();
  const r = await w.run(["-p", "-e", CLOCK, `/time${args}`], { env: { TZ: tz } });
  const after = new Date();
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  // An hour may turn during the run: either side is right.
  expect([dayAndHour(before, zone), dayAndHour(after, zone)].some((p) => r.stdout.startsWith(p)), r.stdout).toBe(true);
  return r.stdout;
}

describe("clock example", () => {
  it("zot ext doctor reports it ready with /time, /timer and the now tool", async () => {
    world = await makeWorld();
    const entry = await doctor(world, CLOCK);
    expect(entry).toMatchObject({ name: "clock", commands: ["time", "timer"], tools: [{ name: "now", deferred: false, interactive: false }] });
  });

  it("/time prints the time in the user's time zone (TZ), and /time <zone> another zone's", async () => {
    world = await makeWorld();
    expect(await time(world, "", "Asia/Tokyo", "Asia/Tokyo")).toMatch(/ at \d{2}:\d{2}:\d{2} GMT\+9 \(Asia\/Tokyo\)\n$/);
    expect(await time(world, " Asia/Dubai", "Asia/Tokyo", "Asia/Dubai")).toMatch(/ at \d{2}:\d{2}:\d{2} \S+ \(Asia\/Dubai\)\n$/);

    const bad = await world.run(["-p", "-e", CLOCK, "/time Mars/Olympus"]);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain('unknown time zone "Mars/Olympus"');
    expect(world.server.requests).toHaveLength(0);
  });

  it("/timer sends a notify when the time is up, and refuses a bad duration", async () => {
    world = await makeWorld();
    const c = rpc(world, ["-e", CLOCK]);
    expect(await c.call({ type: "command", name: "timer", args: "0.2 tea" })).toMatchObject({
      success: true, data: { action: "display", text: "timer set: tea (0.2 s)" },
    });
    expect(c.lines.some((l) => l.type === "ext_notify")).toBe(false);
    expect(await c.waitFor((l) => l.type === "ext_notify")).toEqual({
      type: "ext_notify", extension: "clock", level: "success", message: "⏰ tea: time is up",
    });
    const bad = await c.call({ type: "command", name: "timer", args: "soon" });
    expect(JSON.stringify(bad)).toContain("usage: /timer <seconds> [label]");
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("the model's now tool call gets the current time", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "now", args: { time_zone: "Asia/Tokyo" } }], stop: "tool_use" },
      { text: "it is late in Tokyo" },
    ]);
    const before = Date.now();
    const r = await world.run(["-p", "-e", CLOCK, "what time is it in Tokyo?"]);
    expect(r.stdout).toBe("it is late in Tokyo\n");
    expect(world.server.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("now");
    const sent = requestText(world.server.requests[1]!.body);
    expect(sent).toMatch(/GMT\+9 \(Asia\/Tokyo\)/);
    const unix = Number(/Unix time: (\d+)/.exec(sent)?.[1]);
    expect(unix).toBeGreaterThanOrEqual(Math.floor(before / 1000));
    expect(unix).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });
});
