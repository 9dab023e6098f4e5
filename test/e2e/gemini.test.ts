// `--provider gemini` end to end: the real bundle against the scripted model server's Gemini wire.
// Thought signatures Gemini returned go back on their parts, on the next request and after
// --resume; a call zot recorded itself (an extension's tool_prompt) carries the documented
// placeholder instead.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { savedTranscripts } from "./records.ts";
import { jsonLines, makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const MODEL = "gemini-3.8-flash";
const gemini = (w: World) => ["--provider", "gemini", "--base-url", w.server.url, "--model", MODEL];
const NO_DEFAULTS = { env: { ZOT_PROVIDER: "", ZOT_MODEL: "", ZOT_BASE_URL: "" } };

/** The function-call parts of every model turn a request sent, in order. */
function sentCalls(body: any): Array<{ name: string; id?: string; thoughtSignature?: string }> {
  return (body.contents as any[]).filter((c) => c.role === "model").flatMap((c) => c.parts)
    .filter((p: any) => p.functionCall).map((p: any) => ({ name: p.functionCall.name, id: p.functionCall.id,
      ...(p.thoughtSignature ? { thoughtSignature: p.thoughtSignature } : {}) }));
}

/** A project extension whose /tp command answers with a tool_prompt that reads notes.txt. */
function toolPromptExtension(w: World): void {
  const dir = join(w.cwd, ".zot", "extensions", "tp");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "tp.mjs"), `
    import { createInterface } from "node:readline";
    const send = (f) => process.stdout.write(JSON.stringify(f) + "\\n");
    send({ type: "hello", name: "tp", version: "1.0.0", capabilities: ["commands"] });
    createInterface({ input: process.stdin }).on("line", (line) => {
      const msg = JSON.parse(line);
      if (msg.type === "hello_ack") {
        send({ type: "register_command", name: "tp", description: "hand notes.txt to the model" });
        send({ type: "ready" });
      } else if (msg.type === "command_invoked") {
        send({ type: "command_response", id: msg.id, action: "tool_prompt", prompt: "summarize the notes",
          tool_name: "read", tool_args: { path: "notes.txt" } });
      } else if (msg.type === "shutdown") {
        send({ type: "shutdown_ack" });
        process.exit(0);
      }
    });`);
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "tp", exec: process.execPath, args: ["tp.mjs"] }));
  writeFileSync(join(w.cwd, "notes.txt"), "NOTE-CONTENT\n");
}

describe("gemini", () => {
  it("runs a tool round trip with no key on a local server; the call goes back with its thoughtSignature", async () => {
    world = await makeWorld([
      { tool_calls: [{ id: "fc_1", name: "bash", args: { command: "echo from-gemini" }, signature: "sig-real-1" }] },
      { text: "it printed from-gemini", text_signature: "sig-text-1", usage: { input: 100, output: 10 } },
    ]);
    const run = await world.run(["--mode", "json", "--no-session", ...gemini(world), "say it"], NO_DEFAULTS);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines[0]).toMatchObject({ type: "session", provider: "gemini", model: MODEL });
    expect(lines.find((l) => l.type === "tool_result")).toMatchObject({ tool_name: "bash", status: "completed" });
    expect(lines.at(-1)).toMatchObject({ type: "done" });
    const [first, second] = world.server.requests;
    expect(first!.path).toBe(`/v1beta/models/${MODEL}:streamGenerateContent`);
    expect(first!.headers["x-goog-api-key"]).toBeUndefined();
    expect(sentCalls(second!.body)).toEqual([{ name: "bash", id: "fc_1", thoughtSignature: "sig-real-1" }]);
    expect(JSON.stringify(second!.body.contents)).toContain("from-gemini");
  });

  it("a tool_prompt call carries the placeholder, real signatures survive --resume", async () => {
    world = await makeWorld([
      // After the recorded read: the model calls a tool itself, signed, then answers.
      { tool_calls: [{ id: "fc_2", name: "bash", args: { command: "echo second" }, signature: "sig-real-2" }] },
      { text: "summarized" },
      { text: "resumed answer" },
    ]);
    toolPromptExtension(world);
    const run = await world.run(["--mode", "json", "--trust-project", ...gemini(world), "/tp"], NO_DEFAULTS);
    expect(run.code, run.stderr).toBe(0);
    const id = jsonLines(run.stdout)[0]!.session_id as string;
    expect(world.server.requests).toHaveLength(2);
    const [afterPrompt, afterCall] = world.server.requests;
    expect(JSON.stringify(afterPrompt!.body.contents)).toContain("NOTE-CONTENT");
    expect(sentCalls(afterPrompt!.body)).toEqual([{ name: "read", id: expect.any(String), thoughtSignature: "skip_thought_signature_validator" }]);
    expect(sentCalls(afterCall!.body).map((c) => c.thoughtSignature)).toEqual(["skip_thought_signature_validator", "sig-real-2"]);
    // The session file keeps Gemini's signature on the call; the placeholder is only ever sent.
    const saved = savedTranscripts(world.home);
    expect(saved).toContain("\"signature\":\"sig-real-2\"");
    expect(saved).not.toContain("skip_thought_signature_validator");

    const resumed = await world.run(["--mode", "json", "--trust-project", ...gemini(world), "--resume", id, "and now?"], NO_DEFAULTS);
    expect(resumed.code, resumed.stderr).toBe(0);
    const last = world.server.requests[2]!;
    expect(sentCalls(last.body)).toEqual([
      { name: "read", id: expect.any(String), thoughtSignature: "skip_thought_signature_validator" },
      { name: "bash", id: "fc_2", thoughtSignature: "sig-real-2" },
    ]);
    expect(JSON.stringify(last.body.contents)).toContain("and now?");
  });

  it("zot login checks a Gemini key against /v1beta/models and later requests send it as x-goog-api-key", async () => {
    world = await makeWorld([{ text: "answered with the saved key" }]);
    world.server.acceptKeys = ["AIza-good"];
    const refused = await world.run(["login", "--provider", "gemini", "--base-url", world.server.url, "--with-api-key"], { input: "AIza-bad\n" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("gemini refused the key (HTTP 400: API key not valid. Please pass a valid API key.)");
    const login = await world.run(["login", "--provider", "gemini", "--base-url", world.server.url, "--with-api-key"], { input: "AIza-good\n" });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout + login.stderr).not.toContain("AIza-good");
    expect(JSON.parse(readFileSync(join(world.home, "auth.json"), "utf8"))).toEqual({ gemini: { api_key: "AIza-good" } });
    const run = await world.run(["-p", "--no-session", ...gemini(world), "hi"], { env: { ...NO_DEFAULTS.env, GEMINI_API_KEY: "", GOOGLE_API_KEY: "" } });
    expect(run).toMatchObject({ code: 0, stdout: "answered with the saved key\n" });
    expect(world.server.requests.at(-1)!.headers["x-goog-api-key"]).toBe("AIza-good");
  });

  it("zot login --status names GOOGLE_API_KEY when that is where the Gemini key comes from", async () => {
    world = await makeWorld();
    const status = await world.run(["login", "--status"], { env: { GEMINI_API_KEY: "", GOOGLE_API_KEY: "AIza-from-env" } });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout + status.stderr).toMatch(/gemini.*GOOGLE_API_KEY \(environment\)/);
    expect(status.stdout + status.stderr).not.toContain("AIza-from-env");
  });
});
