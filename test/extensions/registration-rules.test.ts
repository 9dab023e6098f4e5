// Registrations are checked the way the model providers check them: a tool name or schema they
// would refuse, or a command nobody could type, is dropped with a diagnostic; the rest of the
// extension keeps working.
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionLogPath } from "../../lib/paths.ts";
import { command, sandbox, startHost, tool, waitFor, writeExtension, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup());

const LONG = "t".repeat(200);
const answerTools = `ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"good ran"}]});`;

describe("registration rules", () => {
  it("drops a tool whose name or schema a provider would refuse, and a command with a space or a leading /; the rest works", async () => {
    writeExtension(sb.globalDir, "mixed", { name: "mixed", register: [
      tool("bad name!"), tool(LONG), tool("stringy", { schema: { type: "string" } }),
      tool("listy", { schema: { type: "object", properties: [] } }), tool("good"),
      command("deploy now"), command("/slashed"), command("ok"),
    ], on: { tool_call: answerTools } });
    const t = await startHost(sb);
    expect(t.host.tools().map((x) => x.name)).toEqual(["good"]);
    expect(t.host.commands().map((c) => c.name)).toEqual(["ok"]);
    const errors = t.of("ext_error");
    expect(errors.map((e) => e.message)).toEqual([
      'extension "mixed": tool "bad name!" was dropped: a tool name must match ^[a-zA-Z0-9_-]{1,64}$ (letters, digits, "_" and "-", at most 64)',
      `extension "mixed": tool "${"t".repeat(80)}…" (200 characters) was dropped: a tool name must match ^[a-zA-Z0-9_-]{1,64}$ (letters, digits, "_" and "-", at most 64)`,
      'extension "mixed": tool "stringy" was dropped: its schema must be a JSON Schema object with "type": "object" (got "type": "string")',
      'extension "mixed": tool "listy" was dropped: its schema\'s "properties" must be an object',
      'extension "mixed": command "deploy now" was dropped: a command name must not contain spaces',
      'extension "mixed": command "/slashed" was dropped: a command name must not start with "/" (zot adds it)',
    ]);
    expect(errors.every((e) => e.extension === "mixed" && e.log_path === extensionLogPath(sb.paths, "mixed"))).toBe(true);
    const log = readFileSync(extensionLogPath(sb.paths, "mixed"), "utf8");
    for (const e of errors) expect(log).toContain(`error: ${e.message}`);
    const report = t.host.reports()[0]!;
    expect(report).toMatchObject({ status: "error", running: true, ready: "ready", tools: [{ name: "good" }], commands: ["ok"] });
    expect(report.errors).toEqual(errors.map((e) => e.message));
    const outcome = await t.host.tools()[0]!.execute({}, { cwd: sb.cwd, signal: new AbortController().signal });
    expect(outcome.content).toEqual([{ type: "text", text: "good ran" }]);
  });

  it("a registration that breaks a rule after ready is dropped and reported at once", async () => {
    writeExtension(sb.globalDir, "late", { name: "late", register: [tool("first")],
      on: { tool_call: `ctx.send({type:"register_tool",name:"no spaces please",description:"x"}); ${answerTools}` } });
    const t = await startHost(sb);
    await t.host.tools()[0]!.execute({}, { cwd: sb.cwd, signal: new AbortController().signal });
    const error = await waitFor(() => t.of("ext_error")[0], "ext_error for the late registration");
    expect(error.message).toBe('extension "late": tool "no spaces please" was dropped: a tool name must match ^[a-zA-Z0-9_-]{1,64}$ (letters, digits, "_" and "-", at most 64)');
    expect(t.host.tools().map((x) => x.name)).toEqual(["first"]);
  });
});
