// telegram: a bridge between a Telegram bot and the zot session, on zot's TypeScript SDK. Pair
// your Telegram chat with /telegram pair; your private messages to the bot then become prompts
// (the `submit` frame), and the assistant's answers and tool calls come back to the chat.
// Run it with ./run.sh; README.md says how to set up the bot.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { createExtension, display, noop } from "../../../mod.ts";
import { Bridge, UserError } from "./bridge.ts";
import { readConfig } from "./config.ts";
import { PairingStore } from "./pairing-store.ts";

const ext = createExtension({ name: "telegram", version: "1.0.0" });
const PAIRING_FILE = "telegram.json";
const USAGE = "usage: /telegram pair | status | disconnect";

// Created in onHello: the pairing lives in the data directory the host names there.
let bridge: Bridge | undefined;

ext.onHello((host) => {
  const dir = host.dataDir ?? host.extensionDir ?? dirname(fileURLToPath(import.meta.url));
  const log = (message: string) => ext.log(message);
  const store = new PairingStore(join(dir, PAIRING_FILE), log);
  bridge = new Bridge(readConfig(), store, {
    submit: (text) => ext.submit(text),
    notify: (level, message) => ext.notify(level, message),
    log,
  });
  bridge.resume();
});

ext.command("telegram", "bridge to a Telegram chat: /telegram pair | status | disconnect", async (args) => {
  if (!bridge) return noop("the Telegram bridge is not started yet");
  try {
    switch (args.trim().toLowerCase()) {
      case "pair":
        return display(await bridge.pair());
      case "":
      case "status":
        return display(bridge.status());
      case "disconnect":
        return display(bridge.disconnect());
      default:
        return noop(USAGE);
    }
  } catch (err) {
    if (err instanceof UserError) return noop(err.message);
    throw err;
  }
});

ext.on("assistant_message", (event) => {
  if (typeof event.text === "string" && event.text.trim() !== "") bridge?.onAssistantMessage(event.text);
});

ext.on("tool_call", (event) => {
  if (typeof event.tool_name === "string") bridge?.onToolCall(event.tool_name, event.tool_args);
});

await ext.run();
