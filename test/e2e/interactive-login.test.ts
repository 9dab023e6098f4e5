// The REPL's first start without a key, /login and /logout, the final failure's hint and the
// Ctrl+C exit window: the real bundle in a real pseudo-terminal (tmux) against the scripted
// model server.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Turn } from "../support/model-server.ts";
import { EXITED, killPanes, Pane } from "./pane.ts";
import { PROVIDER_NAMES } from "../../lib/providers/index.ts";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  killPanes();
  await world?.close();
  world = undefined;
});

const NO_KEY = { ZOT_BASE_URL: "", ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };
const keyOf = (h: Record<string, string>) => h["x-api-key"] ?? h.authorization?.replace(/^Bearer /, "");

async function repl(script: Turn[], env: Record<string, string> = {}): Promise<Pane> {
  world = await makeWorld(script);
  const pane = await Pane.start(world, ["--no-session"], env);
  await pane.until("/help for commands");
  return pane;
}

describe("the REPL without credentials", () => {
  it("opens with its prompt and a line saying how to log in; slash commands work; a prompt says to log in and the REPL stays", async () => {
    const pane = await repl([], NO_KEY);
    await pane.until("No API key for anthropic yet: type /login to add one (or run `zot login` in a shell)");
    await pane.until("› ");
    await pane.submit("/tools", "Tools (/tools NAME");
    await pane.submit("hello model");
    const text = (await pane.until("no API key for anthropic")).replace(/\n/g, "");
    expect(text).toContain(join(world!.home, "auth.json"));
    expect(text).toContain("ANTHROPIC_API_KEY");
    expect(text).not.toMatch(EXITED);
    await pane.submit("/help", "/login");
    await pane.keys("C-d");
    expect(await pane.exitCode()).toBe(0);
  });
});

describe("zot login on a terminal", () => {
  it("asks for the provider, reads the key without echoing it, checks it and saves it", async () => {
    world = await makeWorld();
    world.server.acceptKeys = ["sk-typed-secret"];
    const pane = await Pane.start(world, ["login"]);
    await pane.until(`Provider (${PROVIDER_NAMES.join(", ")}) [anthropic]:`);
    await pane.submit("openai", "API key for openai (input hidden):");
    await pane.submit("sk-typed-secret", "Logged in to openai");
    expect(await pane.exitCode()).toBe(0);
    expect(await pane.text()).not.toContain("sk-typed");
    expect(world.server.requests[0]!.headers.authorization).toBe("Bearer sk-typed-secret");
    expect(JSON.parse(readFileSync(join(world.home, "auth.json"), "utf8"))).toEqual({ openai: { api_key: "sk-typed-secret" } });
  });

  it("Ctrl+C at the hidden key question saves nothing and exits 130", async () => {
    world = await makeWorld();
    const pane = await Pane.start(world, ["login", "--provider", "anthropic"]);
    await pane.until("API key for anthropic (input hidden):");
    await pane.type("sk-abandoned");
    await pane.keys("C-c");
    expect(await pane.exitCode()).toBe(130);
    expect(world.server.requests).toHaveLength(0);
    expect(existsSync(join(world.home, "auth.json"))).toBe(false);
  });
});

describe("/login and /logout", () => {
  it("/login asks for the provider, takes the key without showing it, checks and saves it, and the next prompt sends it", async () => {
    const pane = await repl([{ text: "logged-in answer" }]);
    world!.server.acceptKeys = ["sk-repl-good"];
    await pane.submit("/login", `provider (${PROVIDER_NAMES.join(", ")}) [anthropic]:`);
    await pane.keys("Enter");
    await pane.until("API key for anthropic (hidden");
    await pane.submit("sk-repl-wrong", "anthropic refused the key (HTTP 401: authentication_error: invalid x-api-key); nothing was saved");
    expect(existsSync(join(world!.home, "auth.json"))).toBe(false);

    await pane.submit("/login anthropic", "API key for anthropic (hidden");
    await pane.submit("sk-repl-good", "✓ Logged in to anthropic");
    expect(JSON.parse(readFileSync(join(world!.home, "auth.json"), "utf8"))).toEqual({ anthropic: { api_key: "sk-repl-good" } });
    await pane.submit("hi", "logged-in answer");
    expect(keyOf(world!.server.requests.at(-1)!.headers)).toBe("sk-repl-good");
    // The key was never on screen, and is not in the history: Up goes hi, /login anthropic, /login.
    await pane.keys("Up", "Up", "Up", "Up");
    const shown = await pane.until(/› \/login\s*$/);
    expect(shown).not.toContain("sk-repl");
  });

  it("a key pasted after /login is neither shown, nor sent, nor kept in the history", async () => {
    const pane = await repl([]);
    await pane.submit("/login sk-pasted-in-repl", `/login takes a provider name (${PROVIDER_NAMES.join(" or ")}); the key is asked for next`);
    await pane.keys("Up");
    await pane.until(/› \/login …\n[\s\S]*›\s*$/);
    expect(await pane.text()).not.toContain("sk-pasted");
    expect(world!.server.requests).toHaveLength(0);
  });

  it("Esc cancels /login and nothing is saved; /logout removes the saved key", async () => {
    const pane = await repl([]);
    await pane.submit("/login anthropic", "API key for anthropic (hidden");
    await pane.type("sk-half-typed");
    await pane.keys("Escape");
    await pane.until("login cancelled; nothing was saved");
    expect(world!.server.requests).toHaveLength(0);

    await pane.submit("/login anthropic");
    await pane.submit("sk-to-remove", "✓ Logged in to anthropic");
    await pane.submit("/logout", "Logged out of anthropic");
    expect(JSON.parse(readFileSync(join(world!.home, "auth.json"), "utf8"))).toEqual({});
  });
});

describe("failures and Ctrl+C", () => {
  it("a final 529 is one red line with a hint to try again or pick another model; a 401 hints at /login", async () => {
    const overloaded = { type: "error" as const, status: 529, message: "Overloaded", retry_after_ms: 1 };
    const pane = await repl([overloaded, overloaded, overloaded, overloaded, overloaded, { type: "error", status: 401, message: "invalid x-api-key" }]);
    await pane.submit("hi", "The provider is overloaded: try again in a moment, or pick another model with /model.");
    expect((await pane.text()).match(/↻ model request failed/g)).toHaveLength(4);
    await pane.submit("again", "The provider refused the API key: save a working one with /login");
  });

  it("a second Ctrl+C exits only within the exit window; after it the next one warns again", async () => {
    const pane = await repl([], { ZOT_CTRL_C_EXIT_MS: "800" });
    await pane.type("some text");
    await pane.keys("C-c");
    await pane.until((t) => /›\s*$/.test(t) && t.includes("Press Ctrl+C again to exit"));
    // The window passes: the warning goes, and the next Ctrl+C warns instead of exiting.
    await pane.until((t) => !t.includes("Press Ctrl+C again to exit"));
    await pane.keys("C-c");
    await pane.until("Press Ctrl+C again to exit");
    expect(await pane.text()).not.toMatch(EXITED);
    await pane.keys("C-c");
    expect(await pane.exitCode()).toBe(0);
  });
});
