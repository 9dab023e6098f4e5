// An MCP tool is an extension tool like any other: another extension's call_tool reaches it
// (parented, inside the chain), and the host's own tool_call interceptors guard it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sandbox, startHost, tool, writeExtension, type Sandbox } from "../helpers.ts";
import { sdkServerSource, writeMcpExtension, writeScript } from "./support.ts";

let sb: Sandbox;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup());

/** Tool `relay` calls the tool named in its args through call_tool, parented by its own call. */
const relay = {
  tool_call: `
    const cid = "c-" + msg.id;
    ctx.state[cid] = msg.id;
    ctx.send({type:"call_tool",id:cid,name:msg.args.target,args:{},parent_id:msg.id});`,
  tool_result: `
    const orig = ctx.state[msg.id];
    if (!orig) return;
    const text = (msg.content || []).map((b) => b.text).join("");
    ctx.send({type:"tool_result",id:orig,content:[{type:"text",text:"relay>" + (msg.is_error ? "ERR(" + text + ")" : text)}]});`,
};

describe("MCP tools in call_tool chains", () => {
  it("another extension calls a bridged tool through call_tool, and a tool_call guard still applies", async () => {
    writeMcpExtension(sb.globalDir, "tiny", { command: process.execPath, args: [writeScript(sb.scratch, "tiny.mjs", sdkServerSource(
      `server.registerTool("secret", { description: "guarded" }, async () => ({ content: [{ type: "text", text: "leaked" }] }));`))] });
    writeExtension(sb.globalDir, "relay", { name: "relay", capabilities: ["tools", "call_tool"],
      register: [tool("relay", { schema: { type: "object", properties: { target: { type: "string" } } } })], on: relay });
    writeExtension(sb.globalDir, "zguard", { name: "zguard", capabilities: ["events"],
      register: [{ type: "subscribe", intercept: ["tool_call"] }],
      on: { event_intercept: `ctx.send(msg.tool_name === "tiny_secret"
        ? {type:"event_intercept_response",id:msg.id,block:true,reason:"no secrets"} : {type:"event_intercept_response",id:msg.id})` } });
    const { host } = await startHost(sb);
    const relayTool = host.tools().find((x) => x.name === "relay")!;
    const run = async (target: string) => (await relayTool.execute({ target }, { cwd: sb.cwd, signal: new AbortController().signal }))
      .content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(await run("tiny_hello")).toBe("relay>hello");
    expect(await run("tiny_secret")).toMatch(/^relay>ERR\(.*no secrets.*\)$/);
  });
});
