// An MCP error is shown with its code once, however many times the server and the SDK prefixed it.
import { describe, expect, it } from "vitest";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { mcpErrorText } from "../../../lib/extensions/runtime/mcp/error-text.ts";

describe("MCP error text", () => {
  it("says the code once when the server's own message already carries it", () => {
    // The SDK prefixes "MCP error <code>: " to the message a server sent; a server that prefixed it too doubles it.
    const doubled = new McpError(-32602, new McpError(-32602, "Invalid arguments for tool add").message);
    expect(doubled.message).toMatch(/^MCP error -32602: MCP error -32602: /);
    expect(mcpErrorText(doubled)).toBe("MCP error -32602: Invalid arguments for tool add");
  });

  it("leaves a message with one code, or none, as it is", () => {
    expect(mcpErrorText(new McpError(-32601, "Method not found"))).toBe("MCP error -32601: Method not found");
    expect(mcpErrorText(new Error("connection closed"))).toBe("connection closed");
  });
});
