// The drivers zot ships, by bundle kind: what the application hands the extension host. A Claude
// Code plugin runs on the hook runner (its hooks and its Markdown commands).
import type { DriverFactories } from "./extension.ts";
import { createHooksDriver } from "./hooks/hooks-driver.ts";
import { createMcpDriver } from "./mcp/mcp-driver.ts";
import { createProtocolDriver } from "./protocol/protocol-driver.ts";
import { createWebSocketDriver } from "./protocol/websocket-driver.ts";

export const extensionDrivers: DriverFactories = { protocol: createProtocolDriver, websocket: createWebSocketDriver, mcp: createMcpDriver, hooks: createHooksDriver, plugin: createHooksDriver, commands: createHooksDriver };
