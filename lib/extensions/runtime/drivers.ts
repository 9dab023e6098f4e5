// The drivers zot ships, by bundle kind: what the application hands the extension host. A Claude
// Code plugin runs on the hook runner (its hooks and its Markdown commands). Each is loaded when
// an extension of its kind first starts, so a run without extensions loads none of them.
import type { DriverFactories, DriverFactory } from "./extension.ts";

const hooks = async (): Promise<DriverFactory> => (await import("./hooks/hooks-driver.ts")).createHooksDriver;

export const extensionDrivers: DriverFactories = {
  protocol: async () => (await import("./protocol/protocol-driver.ts")).createProtocolDriver,
  websocket: async () => (await import("./protocol/websocket-driver.ts")).createWebSocketDriver,
  mcp: async () => (await import("./mcp/mcp-driver.ts")).createMcpDriver,
  hooks,
  plugin: hooks,
  commands: hooks,
};
