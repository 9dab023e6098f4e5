#!/usr/bin/env node
// clock: /time, /timer and a `now` tool, in plain Node with no SDK: the raw protocol is one
// JSON object per line on stdin/stdout. Logs go to stderr ($ZOT_HOME/logs/ext-clock.log).
import { createInterface } from "node:readline";

const send = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`);
const MAX_TIMER_SECONDS = 24 * 60 * 60;

/** "Monday, 30 November 2026 at 19:10:40 GMT+5:30 (Asia/Kolkata)"; throws on an unknown zone. */
function formatTime(date, timeZone) {
  const format = new Intl.DateTimeFormat("en-GB", { dateStyle: "full", timeStyle: "long", timeZone });
  return `${format.format(date)} (${format.resolvedOptions().timeZone})`;
}

function timeCommand(args) {
  // The user's zone is the one zot runs in (TZ or the system setting); /time <zone> asks another.
  try {
    return { action: "display", display: formatTime(new Date(), args || undefined) };
  } catch {
    return { action: "noop", error: `unknown time zone "${args}" (try an IANA name such as Europe/Berlin)` };
  }
}

function timerCommand(args) {
  const [amount = "", ...label] = args.split(/\s+/);
  const seconds = Number(amount);
  if (!/^\d+(\.\d+)?$/.test(amount) || seconds <= 0 || seconds > MAX_TIMER_SECONDS) {
    return { action: "noop", error: "usage: /timer <seconds> [label], e.g. /timer 300 tea (at most one day)" };
  }
  const name = label.join(" ") || `${amount} s timer`;
  setTimeout(() => send({ type: "notify", level: "success", message: `⏰ ${name}: time is up` }), seconds * 1000);
  return { action: "display", display: `timer set: ${name} (${seconds} s)` };
}

function nowTool(args) {
  const date = new Date();
  try {
    const local = formatTime(date, typeof args.time_zone === "string" && args.time_zone ? args.time_zone : undefined);
    return { content: [{ type: "text", text: `${local}\nISO 8601 (UTC): ${date.toISOString()}\nUnix time: ${Math.floor(date.getTime() / 1000)}` }] };
  } catch {
    return { content: [{ type: "text", text: `unknown time zone "${args.time_zone}"` }], is_error: true };
  }
}

send({ type: "hello", name: "clock", version: "1.0.0", capabilities: ["commands", "tools"] });

createInterface({ input: process.stdin }).on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return console.error(`clock: ignored a line that is not JSON: ${line.slice(0, 200)}`);
  }
  if (msg.type === "hello_ack") {
    send({ type: "register_command", name: "time", description: "the time in your time zone, or /time <zone>" });
    send({ type: "register_command", name: "timer", description: "/timer <seconds> [label]: a note when the time is up" });
    send({ type: "register_tool", name: "now", description: "The current date and time, in the user's time zone unless time_zone is given.",
      schema: { type: "object", properties: { time_zone: { type: "string", description: "IANA time zone, e.g. Asia/Tokyo" } } } });
    send({ type: "ready" });
  } else if (msg.type === "command_invoked") {
    const args = typeof msg.args === "string" ? msg.args.trim() : "";
    send({ type: "command_response", id: msg.id, ...(msg.name === "timer" ? timerCommand(args) : timeCommand(args)) });
  } else if (msg.type === "tool_call") {
    send({ type: "tool_result", id: msg.id, ...nowTool(msg.args ?? {}) });
  } else if (msg.type === "shutdown") {
    // Exit once the ack is written; pending timers die with zot.
    process.stdout.write(`${JSON.stringify({ type: "shutdown_ack" })}\n`, () => process.exit(0));
  }
});
// zot closed our stdin without a shutdown (it crashed or was killed): nothing left to notify.
process.stdin.on("end", () => process.exit(0));
