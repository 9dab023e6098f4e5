// The TypeScript SDK for zot extension authors. Built on lib/protocol only.
//
//   const ext = createExtension({ name: "hello", version: "1.0.0" });
//   ext.command("hello", "say hi", () => prompt("Greet me in one short sentence."));
//   ext.tool("weather", { description: "Current weather.", schema }, (args) => textResult("sunny"));
//   await ext.run();                        // one session over stdio, or:
//   await ext.serve({ port: 7345 });        // one session per WebSocket connection
//
// stdout carries protocol frames only: log with `ext.log(...)` (stderr), never console.log.
export { createExtension, Extension, type ExtensionOptions } from "./extension.ts";
export type { RunOutcome } from "./connection.ts";
export type { ServeHandle, ServeOptions } from "./serve.ts";
export type { CommandHandler, ToolHandler } from "./registry.ts";
export { display, insert, noop, openPanel, prompt, toolPrompt, type Response } from "./responses.ts";
export { activateTools, errorResult, imageResult, textResult, type ToolResult } from "./results.ts";
export {
  CallToolError,
  HandlerAbortedError,
  OutboundFrameError,
  type AbortCause,
  type CallToolErrorCode,
} from "./errors.ts";
export type { ReadableLike } from "./reader.ts";
export type { WritableLike } from "./writer.ts";
export type * from "./types.ts";
