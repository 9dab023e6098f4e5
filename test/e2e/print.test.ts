import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { KIT, makeWorld, requestText, ZOT, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("print mode", () => {
  it("prints only the final assistant text on stdout and exits 0", async () => {
    world = await makeWorld([{ text: "Hello from the model." }]);
    const r = await world.run(["-p", "say hi"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("Hello from the model.\n");
    expect(r.code).toBe(0);
    expect(requestText(world.server.requests[0]!.body)).toContain("say hi");
  });

  it("attaches a file redirected to stdin to the prompt, and stdin from /dev/null adds nothing", async () => {
    world = await makeWorld([{ text: "from file" }, { text: "from null" }]);
    const file = join(world.cwd, "changes.diff");
    writeFileSync(file, "diff --git a b\n+redirected line\n");
    const runWithStdin = async (path: string) => {
      const fd = openSync(path, "r");
      try {
        const child = spawn(process.execPath, [ZOT, "-p", "review this"], { cwd: world!.cwd, env: world!.env, stdio: [fd, "pipe", "pipe"] });
        let stdout = "";
        child.stdout!.on("data", (d) => (stdout += d));
        const code = await new Promise((done) => child.on("close", done));
        return { code, stdout };
      } finally {
        closeSync(fd);
      }
    };
    expect(await runWithStdin(file)).toEqual({ code: 0, stdout: "from file\n" });
    expect(requestText(world.server.requests[0]!.body)).toContain(JSON.stringify("review this\n\n<stdin>\ndiff --git a b\n+redirected line\n</stdin>").slice(1, -1));
    expect(await runWithStdin("/dev/null")).toEqual({ code: 0, stdout: "from null\n" });
    expect(requestText(world.server.requests[1]!.body)).toContain("review this");
    expect(requestText(world.server.requests[1]!.body)).not.toContain("<stdin>");
  });

  it("attaches piped stdin to the prompt", async () => {
    world = await makeWorld([{ text: "ok" }]);
    const r = await world.run(["-p", "review this"], { input: "diff --git a b\n+added line\n" });
    expect(r.code).toBe(0);
    const sent = requestText(world.server.requests[0]!.body);
    expect(sent).toContain("review this");
    expect(sent).toContain("+added line");
  });

  it("works over the OpenAI wire format too", async () => {
    world = await makeWorld([{ text: "compatible" }], "openai");
    const r = await world.run(["-p", "hi"]);
    expect(r.stdout).toBe("compatible\n");
    expect(world.server.requests[0]!.wire).toBe("openai");
  });

  it("a provider failure prints nothing on stdout, the error on stderr, and exits 1", async () => {
    world = await makeWorld([{ type: "error", status: 400, message: "bad request: model unknown" }]);
    const r = await world.run(["-p", "hi"]);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^zot: .*bad request: model unknown/m);
    expect(r.code).toBe(1);
  });

  it("a 500 then 200 from the server is retried", async () => {
    world = await makeWorld([{ type: "error", status: 500, message: "boom", retry_after_ms: 10 }, { text: "recovered" }]);
    const r = await world.run(["-p", "hi"]);
    expect(r.stdout).toBe("recovered\n");
    expect(r.code).toBe(0);
    expect(world.server.requests).toHaveLength(2);
    expect(r.stderr).toMatch(/^zot: model request failed \(HTTP 500.*boom\); retry 1 in 0\.0 s$/m);
  });

  it("an assistant_message block's reason goes to stderr naming the extension, and stdout stays empty", async () => {
    world = await makeWorld([{ text: "FORBIDDEN words" }]);
    const r = await world.run(["-p", "-e", KIT, "hi"]);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("[kit] warn: assistant message suppressed: SUPPRESSED-BY-POLICY");
  });

  it("a usage error exits 2 with zot: on stderr", async () => {
    world = await makeWorld();
    const r = await world.run(["-p", "--frobnicate", "hi"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^zot: unknown flag --frobnicate/);
    expect(r.stdout).toBe("");
  });

  it("runs a built-in tool the model calls and reports the final text", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "bash", args: { command: "echo from-bash" } }], stop: "tool_use" },
      (req) => ({ text: requestText(req.body).includes("from-bash") ? "saw it" : "missed it" }),
    ]);
    const r = await world.run(["-p", "run it"]);
    expect(r.stdout).toBe("saw it\n");
  });

  it("persists the session and --continue picks it up", async () => {
    world = await makeWorld([{ text: "first answer" }, { text: "second answer" }]);
    expect((await world.run(["-p", "first question"])).code).toBe(0);
    const r = await world.run(["-p", "-c", "second question"]);
    expect(r.stdout).toBe("second answer\n");
    const sent = requestText(world.server.requests[1]!.body);
    expect(sent).toContain("first question");
    expect(sent).toContain("first answer");
    const dirs = readdirSync(join(world.home, "sessions"));
    expect(dirs).toHaveLength(1);
    expect(readdirSync(join(world.home, "sessions", dirs[0]!))).toHaveLength(1);
  });
});

describe("print mode with extensions", () => {
  it("a slash command's display text is the output", async () => {
    world = await makeWorld();
    const r = await world.run(["-p", "-e", KIT, "/say hello there"]);
    expect(r.stdout).toBe("said: hello there\n");
    expect(r.code).toBe(0);
    expect(world.server.requests).toHaveLength(0);
  });

  it("a prompt action runs the model", async () => {
    world = await makeWorld([{ text: "answered" }]);
    const r = await world.run(["-p", "-e", KIT, "/ask what is zot"]);
    expect(r.stdout).toBe("answered\n");
    expect(requestText(world.server.requests[0]!.body)).toContain("what is zot");
  });

  it("a tool_prompt action records the tool call and result before the model turn", async () => {
    world = await makeWorld([{ text: "summary done" }]);
    writeFileSync(join(world.cwd, "notes.txt"), "the notes say hi\n");
    const r = await world.run(["-p", "-e", KIT, "/readme notes.txt"]);
    expect(r.stdout).toBe("summary done\n");
    const body = world.server.requests[0]!.body;
    const sent = JSON.stringify(body.messages);
    expect(sent).toContain("summarize it");
    expect(sent).toContain("tool_use");
    expect(sent).toContain("the notes say hi");
  });

  it("a /word that names no command is refused (exit 2, no model call); with // before it, it is a prompt", async () => {
    world = await makeWorld([{ text: "there is no /nope command" }]);
    const refused = await world.run(["-p", "/nope at all?"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("unknown command /nope");
    expect(world.server.requests).toHaveLength(0);
    const r = await world.run(["-p", "//nope at all?"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("there is no /nope command\n");
    expect(requestText(world.server.requests[0]!.body)).toContain("/nope at all?");
  });

  it("a built-in that needs the REPL fails with exit 1", async () => {
    world = await makeWorld();
    const r = await world.run(["-p", "/exit"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("/exit works only in interactive mode");
  });

  it("the guard blocks rm -rf (the model sees the reason) and rewrites another command", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "bash", args: { command: "rm -rf /tmp/zot-nothing" } }, { name: "bash", args: { command: "echo hi" } }], stop: "tool_use" },
      { text: "done" },
    ]);
    const r = await world.run(["-p", "-e", KIT, "clean up"]);
    expect(r.code).toBe(0);
    const sent = requestText(world.server.requests[1]!.body);
    expect(sent).toContain('refused: matches danger pattern \\"rm -rf\\"');
    expect(sent).toContain("GUARDED");
  });

  it("an extension tool is called by the model and its result reaches the next request", async () => {
    world = await makeWorld([
      (req) => {
        expect(req.body.tools.map((t: { name: string }) => t.name)).toContain("weather");
        return { tool_calls: [{ name: "weather", args: { city: "Berlin" } }], stop: "tool_use" };
      },
      { text: "It is foggy." },
    ]);
    const r = await world.run(["-p", "-e", KIT, "weather in Berlin?"]);
    expect(r.stdout).toBe("It is foggy.\n");
    expect(requestText(world.server.requests[1]!.body)).toContain("Berlin: 16°C, fog");
  });

  it("a deferred tool appears in the request only after activation", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "load_secret", args: {} }], stop: "tool_use" },
      { tool_calls: [{ name: "secret", args: {} }], stop: "tool_use" },
      { text: "42 it is" },
    ]);
    const r = await world.run(["-p", "-e", KIT, "find the secret"]);
    expect(r.stdout).toBe("42 it is\n");
    const names = (i: number) => world!.server.requests[i]!.body.tools.map((t: { name: string }) => t.name);
    expect(names(0)).toContain("load_secret");
    expect(names(0)).not.toContain("secret");
    expect(names(1)).toContain("secret");
    expect(requestText(world.server.requests[2]!.body)).toContain("the secret is 42");
  });

  it("replace_text changes what the user sees but not what the model sees next", async () => {
    world = await makeWorld([{ text: "the key is SECRET" }, { text: "ok" }]);
    const first = await world.run(["-p", "-e", KIT, "tell me"]);
    expect(first.stdout).toBe("the key is [redacted]\n");
    await world.run(["-p", "-c", "-e", KIT, "again"]);
    expect(requestText(world.server.requests[1]!.body)).toContain("the key is SECRET");
  });

  it("before_agent_start replaces the system prompt the server receives", async () => {
    world = await makeWorld([{ text: "ok" }]);
    await world.run(["-p", "-e", KIT, "hi"]);
    const system = JSON.stringify(world.server.requests[0]!.body.system);
    expect(system).toContain("[kit was here]");
  });

  it("an extension that fails to load is reported on stderr and zot still answers", async () => {
    world = await makeWorld([{ text: "still fine" }]);
    const broken = join(world.cwd, "broken");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(broken);
    writeFileSync(join(broken, "extension.json"), JSON.stringify({ name: "broken", exec: "./missing-binary" }));
    const r = await world.run(["-p", "-e", broken, "hi"]);
    expect(r.stdout).toBe("still fine\n");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("[broken]");
    expect(readFileSync(join(world.home, "logs", "ext-broken.log"), "utf8").length).toBeGreaterThan(0);
  });
});

describe("installed extensions", () => {
  it("an installed Python extension imports zot's own Python SDK and serves the model", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "add_note", args: { text: "buy milk" } }], stop: "tool_use" },
      (req) => ({ text: JSON.stringify(req.body.messages).includes("Saved note #1") ? "noted" : "not noted" }),
    ]);
    const { ROOT } = await import("./support.ts");
    const install = await world.run(["ext", "install", "--yes", join(ROOT, "examples", "extensions", "py-notes")]);
    expect(install.code).toBe(0);
    const r = await world.run(["-p", "remember to buy milk"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("noted\n");
  });
});
