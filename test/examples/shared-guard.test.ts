// examples/extensions/shared-guard: the guard served once by `zot ext serve`, and two zots that
// connect to it at the same time through the example's url manifest; each has its dangerous
// bash call refused by the shared guard.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, ZOT, type World } from "../e2e/support.ts";
import { waitForOutput } from "../support/wait-output.ts";
import { EXAMPLES } from "./support.ts";

let world: World | undefined;
let server: ChildProcess | undefined;
afterEach(async () => {
  server?.kill("SIGTERM");
  await world?.close();
  world = server = undefined;
});

const TOKEN = "shared-guard-token";

/** `zot ext serve` of the guard on a free port with TOKEN; resolves with the port once it listens. */
async function serveGuard(env: Record<string, string>): Promise<number> {
  server = spawn(process.execPath, [ZOT, "ext", "serve", join(EXAMPLES, "guard"), "--port", "0"], { env: { ...env, ZOT_SERVE_TOKEN: TOKEN },
    stdio: ["ignore", "ignore", "pipe"] });
  return Number((await waitForOutput(server, "stderr", /listening on ws:\/\/[^:]+:(\d+)/)).match);
}

describe("the shared guard example", () => {
  it("two zots use one served guard at the same time; each one's rm -rf / is refused", async () => {
    const turn = (request: { body: any }) => (JSON.stringify(request.body.messages).includes("tool_result") ? { text: "understood" }
      : { tool_calls: [{ id: "danger", name: "bash", args: { command: "touch ran.txt; rm -rf /" } }], stop: "tool_use" });
    world = await makeWorld([turn, turn, turn, turn]);
    const port = await serveGuard(world.env);
    const installed = join(world.home, "extensions", "guard");
    cpSync(join(EXAMPLES, "shared-guard"), installed, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(installed, "extension.json"), "utf8"));
    writeFileSync(join(installed, "extension.json"), JSON.stringify({ ...manifest, url: manifest.url.replace("8765", String(port)) }));
    const env = { ZOT_SERVE_TOKEN: TOKEN };
    const runs = await Promise.all([world.run(["-p", "clean up"], { env }), world.run(["-p", "clean up too"], { env })]);
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe("understood\n");
    }
    const refused = world.server.requests.filter((q) => JSON.stringify(q.body.messages).includes("refused by the guard extension"));
    expect(refused).toHaveLength(2);
    expect(existsSync(join(world.cwd, "ran.txt"))).toBe(false);
  });
});
