// An MCP error's text, its code said once: a server that puts "MCP error -32602: …" in its own
// message would otherwise read "MCP error -32602: MCP error -32602: …" once the SDK adds its own.
export function mcpErrorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/^(MCP error -?\d+: )(?:\1)+/, "$1");
}
