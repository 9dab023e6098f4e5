// `zot ext add-url`: writes a WebSocket extension's folder that zot then connects to (doctor
// shows the connection), keeps `${VAR}` in headers unexpanded on disk, and refuses bad input.
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startWsFixture } from "../support/ws-fixture.ts";
import { makeSandbox, runZot, type Sandbox } from "./support/cli.ts";

let sb: Sandbox;
let server: ChildProcess | undefined;
beforeEach(() => { sb = makeSandbox(); });
afterEach(() => {
  server?.kill("SIGKILL");
  server = undefined;
  sb.cleanup();
});

const zot = (...args: string[]) => runZot(["ext", ...args], { cwd: sb.project, env: { ...sb.env, ZOT_TEST_TEAM_TOKEN: "t0ken" } });

async function startServer(): Promise<number> {
  const fixture = await startWsFixture(0, { token: "t0ken" });
  server = fixture.process;
  return fixture.port;
}

describe("zot ext add-url", () => {
  it("writes a folder whose extension zot connects to, with the header's ${VAR} expanded only when connecting", async () => {
    const port = await startServer();
    const added = await zot("add-url", "remote", `ws://127.0.0.1:${port}/`, "--header", "Authorization=Bearer ${ZOT_TEST_TEAM_TOKEN}");
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`zot connects to ws://127.0.0.1:${port}/`);
    const manifest = JSON.parse(readFileSync(join(sb.globalRoot, "remote", "extension.json"), "utf8"));
    expect(manifest).toMatchObject({ name: "remote", url: `ws://127.0.0.1:${port}/`, headers: { Authorization: "Bearer ${ZOT_TEST_TEAM_TOKEN}" } });
    const doctor = await zot("doctor", "--json");
    const report = JSON.parse(doctor.stdout).extensions[0];
    expect(report, doctor.stdout).toMatchObject({ name: "remote", kind: "websocket", status: "ok", tools: [{ name: "echo" }, { name: "hang" }] });
  });

  it("refuses a URL that is not ws:// or wss://, writing nothing", async () => {
    const r = await zot("add-url", "remote", "https://example.com/");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("url must be a ws:// or wss:// URL");
    expect(existsSync(join(sb.globalRoot, "remote"))).toBe(false);
  });

  it.each([["a line break", "X-Token=ok\r\nX-Injected: 1", "holds a line break"], ["a character outside Latin-1", "X-Token=\u20acuro", "outside Latin-1"],
    ["a name HTTP does not allow", "X Token=v", "not a valid HTTP header name"]])(
    "refuses a --header with %s, writing nothing", async (_what, header, message) => {
      const r = await zot("add-url", "remote", "ws://127.0.0.1:9/", "--header", header);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
      expect(existsSync(join(sb.globalRoot, "remote"))).toBe(false);
    });
});
