// `zot login`, `zot logout` and `zot login --status` through the real zot process, against the
// scripted model server's models list; and what a first start without any key can do.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { jsonLines, makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const authFile = (w: World) => join(w.home, "auth.json");
const readAuth = (w: World) => JSON.parse(readFileSync(authFile(w), "utf8"));
// The SDK sends the key as x-api-key or as a bearer token, depending on its version.
const keyOf = (h: Record<string, string>) => h["x-api-key"] ?? h.authorization?.replace(/^Bearer /, "");
/** No key anywhere in the environment, and the provider's public endpoint (which needs one). */
const NO_KEY = { ZOT_BASE_URL: "", ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };

/** A loopback URL where nothing listens. */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return `http://127.0.0.1:${port}`;
}

describe("zot login --with-api-key", () => {
  it("checks the piped key with the models list, saves it in auth.json with mode 0600, and the next run sends it", async () => {
    world = await makeWorld([{ text: "answer with the saved key" }]);
    world.server.acceptKeys = ["sk-good-1"];
    const login = await world.run(["login", "--provider", "anthropic", "--base-url", world.server.url, "--with-api-key"], { input: "sk-good-1\n" });
    expect(login.code).toBe(0);
    expect(login.stderr).toContain(`Logged in to anthropic: the key works and is saved in ${authFile(world)}`);
    expect(login.stdout + login.stderr).not.toContain("sk-good-1");
    const check = world.server.requests[0]!;
    expect({ method: check.method, path: check.path, key: check.headers["x-api-key"] }).toEqual({ method: "GET", path: "/v1/models", key: "sk-good-1" });
    expect(statSync(authFile(world)).mode & 0o777).toBe(0o600);
    expect(readAuth(world)).toEqual({ anthropic: { api_key: "sk-good-1" } });

    const next = await world.run(["-p", "--no-session", "hi"]);
    expect(next).toMatchObject({ code: 0, stdout: "answer with the saved key\n" });
    expect(keyOf(world.server.requests[1]!.headers)).toBe("sk-good-1");
  });

  it("a refused key (401) is not saved, and the message carries the provider's answer", async () => {
    world = await makeWorld();
    world.server.acceptKeys = ["sk-good-1"];
    const r = await world.run(["login", "--provider", "anthropic", "--with-api-key"], { input: "sk-refused-7" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: anthropic refused the key \(HTTP 401: authentication_error: invalid x-api-key\); nothing was saved$/m);
    expect(r.stderr).not.toContain("sk-refused-7");
    expect(existsSync(authFile(world))).toBe(false);
  });

  it("ZOT_BASE_URL is where the key is checked when --base-url is not given; an openai key goes as a bearer token", async () => {
    world = await makeWorld([], "openai");
    const r = await world.run(["login", "--provider", "openai", "--with-api-key"], { input: "sk-openai-2" });
    expect(r.code).toBe(0);
    const check = world.server.requests[0]!;
    expect({ path: check.path, auth: check.headers.authorization }).toEqual({ path: "/v1/models", auth: "Bearer sk-openai-2" });
    expect(readAuth(world)).toEqual({ openai: { api_key: "sk-openai-2" } });
  });

  it("keeps the other providers' entries, and the other fields of the one it replaces", async () => {
    world = await makeWorld();
    writeFileSync(authFile(world), JSON.stringify({ openai: "sk-openai-old", anthropic: { api_key: "sk-old", note: "work" } }), { mode: 0o644 });
    const r = await world.run(["login", "--provider", "anthropic", "--with-api-key"], { input: "sk-new-3" });
    expect(r.code).toBe(0);
    expect(readAuth(world)).toEqual({ openai: "sk-openai-old", anthropic: { api_key: "sk-new-3", note: "work" } });
    expect(statSync(authFile(world)).mode & 0o777).toBe(0o600);
  });

  it("a network failure says the server could not be reached and saves nothing", async () => {
    world = await makeWorld();
    const url = await closedUrl();
    const r = await world.run(["login", "--provider", "anthropic", "--base-url", url, "--with-api-key"], { input: "sk-any-4" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`zot: the key could not be checked: could not reach ${url}/v1/models`);
    expect(r.stderr).toMatch(/nothing was saved/);
    expect(existsSync(authFile(world))).toBe(false);
  });

  it("an auth.json that is not JSON is left as it is, not overwritten", async () => {
    world = await makeWorld();
    writeFileSync(authFile(world), "{ not json");
    const r = await world.run(["login", "--provider", "anthropic", "--with-api-key"], { input: "sk-good-5" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is not valid JSON .*zot will not overwrite it/);
    expect(readFileSync(authFile(world), "utf8")).toBe("{ not json");
  });

  it("without a terminal and without --with-api-key it is a usage error that shows how to pipe the key", async () => {
    world = await makeWorld();
    const r = await world.run(["login", "--provider", "anthropic"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--with-api-key");
    expect(world.server.requests).toHaveLength(0);
  });

  it("a key given as an argument is refused without being repeated back", async () => {
    world = await makeWorld();
    const r = await world.run(["login", "sk-pasted-arg"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("zot login takes no arguments");
    expect(r.stderr).not.toContain("sk-pasted-arg");
  });

  it("an unknown provider or flag is a usage error", async () => {
    world = await makeWorld();
    expect((await world.run(["login", "--provider", "nosuchcloud", "--with-api-key"], { input: "k" })).code).toBe(2);
    expect((await world.run(["login", "--frobnicate"])).code).toBe(2);
    expect((await world.run(["logout", "nosuchcloud"])).code).toBe(2);
  });
});

describe("zot login --status and zot logout", () => {
  it("--status names where each provider's key comes from, never the key", async () => {
    world = await makeWorld();
    writeFileSync(authFile(world), JSON.stringify({ anthropic: { api_key: "sk-saved-secret" } }), { mode: 0o600 });
    const r = await world.run(["login", "--status"], { env: { ...NO_KEY, OPENAI_API_KEY: "sk-env-secret" } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^anthropic +${authFile(world).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"));
    expect(r.stdout).toMatch(/^openai +OPENAI_API_KEY \(environment\)$/m);
    expect(r.stdout + r.stderr).not.toMatch(/sk-|secret/);

    const shadowed = await world.run(["login", "--status"], { env: { ...NO_KEY, ANTHROPIC_API_KEY: "sk-env-secret" } });
    expect(shadowed.stdout).toMatch(/^anthropic +ANTHROPIC_API_KEY \(environment\)$/m);
    expect(shadowed.stdout).toContain(`a saved key in ${authFile(world)} is not used while ANTHROPIC_API_KEY is set`);
    expect(shadowed.stdout).toMatch(/^openai +no key \(zot login --provider openai\)$/m);
  });

  it("logout PROVIDER removes that provider's saved key and keeps the others; logout alone removes every one", async () => {
    world = await makeWorld();
    writeFileSync(authFile(world), JSON.stringify({ anthropic: { api_key: "a" }, openai: { api_key: "o" } }), { mode: 0o600 });
    const one = await world.run(["logout", "anthropic"]);
    expect(one.code).toBe(0);
    expect(one.stderr).toContain(`Logged out of anthropic: its key was removed from ${authFile(world)}`);
    expect(readAuth(world)).toEqual({ openai: { api_key: "o" } });
    const all = await world.run(["logout"]);
    expect(all.code).toBe(0);
    expect(all.stderr).toContain("No saved key for anthropic");
    expect(readAuth(world)).toEqual({});
  });
});

describe("the first start without credentials", () => {
  it("zot -p of an extension command that does not ask the model runs without a key and exits 0", async () => {
    world = await makeWorld();
    const scaffold = await world.run(["ext", "new", "hello"], { env: NO_KEY });
    expect(scaffold.code).toBe(0);
    const r = await world.run(["-p", "/hello"], { env: NO_KEY });
    expect(r).toMatchObject({ code: 0, stdout: "Hello from hello!\n" });
    expect(world.server.requests).toHaveLength(0);
  });

  it("a prompt for the model fails with exit 1, naming auth.json's real path, the variable and zot login", async () => {
    world = await makeWorld();
    const r = await world.run(["-p", "--no-session", "hi"], { env: NO_KEY });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no API key for anthropic: run `zot login`");
    expect(r.stderr).toContain(authFile(world));
    expect(r.stderr).toContain("ANTHROPIC_API_KEY");
    expect(r.stdout).toBe("");
  });

  it("json mode without a key keeps stdout protocol lines only, ending in an error done", async () => {
    world = await makeWorld();
    const r = await world.run(["--mode", "json", "--no-session", "hi"], { env: NO_KEY });
    expect(r.code).toBe(1);
    const lines = jsonLines(r.stdout);
    expect(lines[0]!.type).toBe("session");
    expect(lines.at(-1)).toMatchObject({ type: "done", stop: "error", error: expect.stringContaining(authFile(world)) });
    expect(r.stderr).not.toContain("no API key");
  });

  it("a key saved while a run is going is sent from its next request on (the key is looked up at each request)", async () => {
    world = await makeWorld([{ text: "first" }, { text: "second" }]);
    const rpc = world.start(["--mode", "rpc", "--no-session"], { env: { ANTHROPIC_API_KEY: "" } });
    let out = "";
    rpc.stdout!.on("data", (d) => (out += d));
    const dones = () => out.match(/"type":"done"/g)?.length ?? 0;
    const until = async (test: () => boolean) => {
      while (!test()) await new Promise((r) => rpc.stdout!.once("data", r));
    };
    rpc.stdin!.write(`${JSON.stringify({ type: "prompt", message: "one" })}\n`);
    await until(() => dones() === 1);
    writeFileSync(authFile(world), JSON.stringify({ anthropic: { api_key: "sk-late-6" } }), { mode: 0o600 });
    rpc.stdin!.write(`${JSON.stringify({ type: "prompt", message: "two" })}\n`);
    await until(() => dones() === 2);
    rpc.stdin!.end();
    await new Promise((done) => rpc.on("close", done));
    // The loopback server needs no key, so the first request went without one.
    expect(world.server.requests.map((r) => keyOf(r.headers) ?? null)).toEqual([null, "sk-late-6"]);
  });
});
