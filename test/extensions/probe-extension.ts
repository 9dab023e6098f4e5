// A real Node extension that does what a test tells it through its `probe` tool: read or write a
// file, make a symlink, list environment variables, connect to a loopback port, or run a shell
// command. Its code lives in its own folder, since a sandbox shows nothing else of the repository.
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { PROGRAMMABLE, tool, type Sandbox, type TestHost } from "./helpers.ts";

const PROBE = `
  const net = process.getBuiltinModule("node:net");
  const { execSync } = process.getBuiltinModule("node:child_process");
  const reply = (text, isError) => ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text}],...(isError?{is_error:true}:{})});
  const a = msg.args;
  try {
    if (a.action === "read") return reply("read: " + ctx.fs.readFileSync(a.path, "utf8"));
    if (a.action === "env") return reply(a.names.map((n) => n + "=" + (process.env[n] ?? "-")).join(" "));
    if (a.action === "write") { ctx.fs.writeFileSync(a.path, a.text ?? "x"); return reply("wrote"); }
    if (a.action === "symlink") { ctx.fs.symlinkSync(a.target, a.path); return reply("linked"); }
    if (a.action === "sh") return reply(execSync(a.command, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
    if (a.action === "connect") {
      const s = net.connect({ host: "127.0.0.1", port: a.port });
      s.setTimeout(1000, () => { s.destroy(); reply("connect: timeout", true); });
      s.on("connect", () => { s.destroy(); reply("connected"); });
      s.on("error", (e) => reply("connect: " + e.code, true));
      return;
    }
  } catch (e) { return reply(a.action + ": " + (e.code ?? e.status ?? e.message) + (e.stderr ? " " + e.stderr : ""), true); }
`;

/** Writes the probe extension into `parent` (default: the global root) with these manifest fields; returns its folder. */
export function probeExtension(sb: Sandbox, manifest: Record<string, unknown>, name = "probe", parent = sb.globalDir): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(PROGRAMMABLE, join(dir, "ext.mjs"));
  const config = { name, register: [tool("probe")], on: { tool_call: PROBE } };
  writeFileSync(join(dir, "extension.json"), JSON.stringify({
    name, exec: process.execPath, args: [join(dir, "ext.mjs"), JSON.stringify(config)], ...manifest,
  }));
  return dir;
}

export async function probe(t: TestHost, sb: Sandbox, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const p = t.host.tools().find((x) => x.name === "probe");
  expect(p, JSON.stringify(t.host.reports()[0]?.errors)).toBeDefined();
  const outcome = await p!.execute(args, { cwd: sb.cwd, signal: new AbortController().signal });
  const first = outcome.content[0];
  return { text: first?.type === "text" ? first.text : "", isError: Boolean(outcome.isError) };
}
