// What a bare one-shot run loads: the source modules of the Node bundle's chunks it reads (the
// build's metafile says which modules each chunk holds). Whatever a one-shot prompt does not
// need (another provider's SDK, the REPL, themes, sessions' family code, login, completion, the
// WebSocket library, the install and protocol-server code, the extension drivers, the built-ins
// behind the runtime's streams) must stay out of its start, so the start-up won back does not
// erode unseen.
import { readFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, ROOT, ZOT, type World } from "./support.ts";

const TRACE = join(ROOT, "test", "support", "load-trace.mjs");
const DIST = pathToFileURL(join(ROOT, "dist")).href;

/** Modules no bare one-shot run may load, by path prefix. */
const NOT_IN_A_ONE_SHOT = [
  "node_modules/openai/", "node_modules/@google/genai/", "node_modules/ollama/",
  "lib/modes/repl/", "lib/modes/interactive.ts", "lib/modes/rpc/", "lib/modes/acp/", "lib/modes/mcp-serve/",
  "lib/theme/themes.ts", "lib/theme/palette.ts", "lib/theme/theme-file.ts",
  "lib/agent/session/session-family.ts", "lib/agent/session/session-fork.ts", "lib/agent/session/session-export.ts",
  "lib/app/session-branches.ts", "lib/app/slash-branches.ts",
  "lib/app/login.ts", "lib/cli/login.ts", "lib/providers/key-check.ts",
  "lib/cli/completion/", "lib/cli/help/", "lib/cli/ext/", "lib/cli/mcp/", "lib/extensions/install/",
  // The extension drivers and what they run on load with the first extension of their kind.
  "lib/extensions/runtime/protocol/", "lib/extensions/runtime/hooks/", "lib/extensions/runtime/mcp/",
  "lib/extensions/runtime/spawn.ts", "lib/extensions/runtime/connection.ts",
  // The frames' schemas (a millisecond and a half to build) check what extensions send.
  "lib/protocol/extension-frames.ts", "lib/protocol/host-frames.ts", "lib/protocol/parse.ts", "lib/protocol/index.ts",
  "node_modules/ws/", "node_modules/@modelcontextprotocol/", "node_modules/@agentclientprotocol/",
  "node_modules/giget/", "node_modules/tar/", "node_modules/marked/", "node_modules/highlight.js/",
  // Built-ins that load the runtime's stream machinery (a compiled run's costliest start-up work);
  // node:process's module form builds process.stdout and stdin on Node.
  "node:stream", "node:crypto", "node:tty", "node:net", "node:readline", "node:process",
  // citty's parser loads node:util (3.5 ms): the root command reads its flags itself.
  "node:util", "node_modules/citty/",
  // Loaded where a process is started or a file URL read (lib/lazy-node.ts): 2.5 ms and 0.5 ms.
  "node:child_process", "node:url",
];

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The source modules and built-ins a run of `args` loaded, and the standard streams it built. */
async function loadedModules(w: World, args: string[]): Promise<{ modules: string[]; streams: string[] }> {
  const meta = JSON.parse(readFileSync(join(ROOT, "dist", "zot-meta.json"), "utf8")) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  const child = spawn(process.execPath, ["--import", TRACE, ZOT, ...args], { cwd: w.cwd, env: { ...w.env, ANTHROPIC_API_KEY: "test" }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  child.stdout.resume();
  expect(await new Promise((done) => child.on("close", done))).toBe(0);
  const chunks = stderr.split("\n").filter((l) => l.startsWith(`zot-load ${DIST}/`)).map((l) => `.${l.slice(`zot-load ${DIST}`.length)}`);
  expect(chunks).toContain("./zot.mjs");
  const builtins = stderr.split("\n").filter((l) => l.startsWith("zot-load node:")).map((l) => l.slice("zot-load ".length));
  const streams = stderr.split("\n").filter((l) => l.startsWith("zot-stream ")).map((l) => l.slice("zot-stream ".length));
  return { modules: [...chunks.flatMap((chunk) => Object.keys(meta.outputs[chunk]?.inputs ?? { [`unknown chunk ${chunk}`]: 0 })), ...builtins], streams };
}

describe("a bare one-shot run loads only what it needs", () => {
  for (const args of [["--mode", "json", "--no-session", "hi"], ["-p", "hi"]]) {
    it(`zot ${args.join(" ")} loads no other provider's SDK, REPL, themes, session family, login, completion, ws, install code or stream built-ins`, async () => {
      world = await makeWorld([{ text: "hello" }]);
      const { modules, streams } = await loadedModules(world, args);
      expect(modules).toContain("node_modules/@anthropic-ai/sdk/client.mjs");
      expect(modules).toContain("node:fs/promises");
      expect(modules.filter((m) => NOT_IN_A_ONE_SHOT.some((prefix) => m.startsWith(prefix)))).toEqual([]);
      // Output goes to fd 1 directly (lib/std-output.ts). (Node's own fetch builds process.stderr.)
      expect(streams.filter((name) => name !== "stderr")).toEqual([]);
    });
  }
});
