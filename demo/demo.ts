// `npm run demo`: zot's main job end to end with no API key and no network — install an example
// extension into a throwaway $ZOT_HOME, then let zot run a scripted model (a loopback server
// speaking the Anthropic streaming format) that calls the extension's tool and trips its guard.
// The build runs first and says nothing unless it fails; on a terminal the demo then offers the
// REPL against the same kind of scripted model.
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startModelServer } from "../test/support/model-server.ts";

const root = resolve(import.meta.dirname, "..");
const zot = join(root, "dist", "zot.mjs");
const node = process.env.NODE ?? "node";
const scratch = mkdtempSync(join(tmpdir(), "zot-demo-"));
const env = { ...process.env, ZOT_HOME: join(scratch, "home"), ANTHROPIC_API_KEY: "" };

const build = spawnSync(process.execPath, [join(root, "build.ts"), "--node-only"], { cwd: root, encoding: "utf8" });
if (build.status !== 0) {
  process.stderr.write(`${build.stdout}${build.stderr}\nnpm run demo: the build failed (above)\n`);
  process.exit(1);
}

const server = await startModelServer([
  {
    text: "I'll save that note and clean the build folder.",
    tool_calls: [
      { name: "add_note", args: { text: "try zot's extension system" } },
      { name: "bash", args: { command: "rm -rf build" } },
    ],
    stop: "tool_use",
  },
  { text: "Saved your note. The guard extension refused `rm -rf build`, so nothing was deleted." },
]);

try {
  console.log("$ zot ext install --yes examples/extensions/py-notes");
  spawnSync(node, [zot, "ext", "install", "--yes", join(root, "examples", "extensions", "py-notes")], { env, stdio: "inherit" });

  const prompt = "remember to try zot's extension system, then clean the build folder";
  console.log(`\n$ zot --mode json "${prompt}"   (model: scripted, on ${server.url})`);
  // Not spawnSync: the model server lives in this process and must keep answering.
  const child = spawn(node, [zot, "--mode", "json", "--base-url", server.url, "--model", "claude-sonnet-4-6", prompt], {
    env, cwd: scratch, stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const status = await new Promise<number | null>((done) => child.on("close", done));
  for (const line of stdout.split("\n").filter(Boolean)) {
    const e = JSON.parse(line);
    if (e.type === "tool_call") console.log(`  → ${e.tool_name} ${JSON.stringify(e.tool_args)}`);
    else if (e.type === "tool_result") console.log(`  ← ${e.tool_name} [${e.status}] ${e.result.content.map((c: { text?: string }) => c.text ?? "").join(" ").trim()}`);
    else if (e.type === "assistant_message") console.log(`  ${e.text}`);
    else if (e.type === "ext_notify" || e.type === "ext_error") console.log(`  [${e.extension}] ${e.message}`);
    else if (e.type === "done") console.log(`  (done: ${e.stop})`);
  }
  if (stderr.trim()) console.error(stderr.trim());
  process.exitCode = status ?? 1;
  if (status === 0 && process.stdin.isTTY && process.stdout.isTTY) await offerRepl();
} finally {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
}

/** Asks whether to open zot's REPL with the demo's extension, against a model that answers from a script. */
async function offerRepl(): Promise<void> {
  const ask = createInterface({ input: process.stdin, output: process.stdout });
  const answer = (await ask.question("\nOpen the REPL with this extension against a scripted model? [y/N] ")).trim().toLowerCase();
  ask.close();
  if (answer !== "y" && answer !== "yes") return;
  const turns = Array.from({ length: 20 }, (_, i) => ({ text: i === 0
    ? "Hello from the scripted model. Try /notes, /help or !ls; Ctrl+D leaves." : "(the scripted model has no more to say; Ctrl+D leaves)" }));
  const repl = await startModelServer(turns);
  try {
    const child = spawn(node, [zot, "--base-url", repl.url, "--model", "claude-sonnet-4-6"], { env, cwd: scratch, stdio: "inherit" });
    await new Promise((done) => child.on("close", done));
  } finally {
    await repl.close();
  }
}
