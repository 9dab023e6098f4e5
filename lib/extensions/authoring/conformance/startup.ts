// Startup checks: hello (first frame, in time, its name, its capabilities), the hello_ack the
// host sends, the registrations that follow and the `ready` sentinel.
import {
  BUILTIN_TOOL_NAMES, INTERCEPT_V2, isInterceptableEventName, needsInterceptV2, isLifecycleEventName, PROTOCOL_VERSION, type RegisterToolFrame,
} from "../../../protocol/index.ts";
import { ZOT_VERSION } from "../../../version.ts";
import { hostCapabilities } from "../../runtime/extension.ts";
import { judgeEarlyLine, type EarlyLine } from "../../runtime/first-frame.ts";
import { commandRegistrationProblem, toolRegistrationProblem } from "../../runtime/registration-rules.ts";
import type { StdoutLine } from "./driver.ts";
import { exitPhrase, type Session } from "./session.ts";

/** A stdout line as the host's handshake sees it (runtime/first-frame.ts). */
function earlyLine(line: StdoutLine): EarlyLine {
  if (line.frame) return { frame: line.frame };
  const type = line.json?.type;
  return { invalid: { error: line.error ?? "not a JSON object", ...(typeof type === "string" ? { type } : {}) } };
}

/** "a notify frame" / "a line that is not JSON" for a detail line. */
export function describeLine(line: StdoutLine): string {
  if (!line.json) return `a line that is not a JSON object (${JSON.stringify(line.text.slice(0, 60))})`;
  return typeof line.json.type === "string" ? `a ${line.json.type} frame` : "a JSON object without a string type";
}

/**
 * hello, hello name and capabilities. Returns the hello line, or undefined when there is none
 * to go on (no hello in time, a crash): the caller then skips everything but the stdout check.
 */
export async function checkHello(s: Session): Promise<StdoutLine | undefined> {
  const { driver, list, timeouts } = s;
  const ignored: string[] = [];
  let first = await driver.waitFor(() => true, timeouts.hello);
  // Lines zot ignores before hello (a banner) are diagnostics, as in zot, not a refusal.
  while (first.kind === "line" && judgeEarlyLine(earlyLine(first.line), s.manifest.name).verdict === "ignored") {
    ignored.push(describeLine(first.line));
    first = await driver.waitFor(() => true, Math.max(0, timeouts.hello - driver.elapsed()), first.line.index + 1);
  }
  if (ignored.length) {
    list.warn("before hello", `${ignored.length} line(s) before hello that are not frames, first ${ignored[0]}: ` +
      "zot loads the extension, ignoring and logging them (write diagnostics to stderr instead)");
  }
  let hello: StdoutLine | undefined;
  if (first.kind === "exited") {
    s.exitReported = true;
    list.fail("hello", `${exitPhrase(first.status)} before sending hello`);
  } else if (first.kind === "timeout") {
    list.fail("hello", `no stdout frame within ${timeouts.hello} ms (hello must be the first frame)`);
  } else if (first.line.frame?.type === "hello") {
    hello = first.line;
    list.pass("hello", `first frame, ${hello.at} ms after start`);
  } else {
    const early = judgeEarlyLine(earlyLine(first.line), s.manifest.name);
    // zot refuses such an extension; a later hello still lets the other checks run.
    const left = Math.max(0, timeouts.hello - driver.elapsed());
    const later = await driver.waitFor((l) => l.json?.type === "hello", left);
    hello = later.kind === "line" ? later.line : undefined;
    if (later.kind === "exited") s.exitReported = true;
    list.fail("hello", `${early.verdict === "refused" ? early.why : `the first stdout line was ${describeLine(first.line)}`} (zot refuses the extension)` +
      (hello ? `; hello came ${hello.at} ms after start` : ""));
  }
  if (!hello) {
    list.skip("hello name", "no hello");
    list.skip("capabilities", "no hello");
    return undefined;
  }
  const name = hello.json!.name;
  const verdict = hello.frame ? judgeEarlyLine({ frame: hello.frame }, s.manifest.name) : undefined;
  if (verdict?.verdict === "hello") list.pass("hello name", `"${name}" matches extension.json`);
  else if (verdict?.verdict === "refused") list.fail("hello name", `${verdict.why} (zot refuses to load it; the other checks ran anyway)`);
  else {
    list.fail("hello name", `hello name ${JSON.stringify(name ?? null)} does not match the manifest name ` +
      `"${s.manifest.name}" (zot refuses to load it; the other checks ran anyway)`);
  }
  const caps = hello.json!.capabilities;
  if (caps === undefined) list.pass("capabilities", "none advertised");
  else if (Array.isArray(caps) && caps.every((c) => typeof c === "string")) {
    s.capabilities = caps;
    list.pass("capabilities", caps.length ? caps.join(", ") : "none advertised");
  } else list.fail("capabilities", `capabilities must be an array of strings, got ${JSON.stringify(caps).slice(0, 80)}`);
  return hello;
}

/** Sends the hello_ack the host would send (with a scratch data_dir). */
export function sendHelloAck(s: Session): void {
  s.driver.send({
    type: "hello_ack", protocol_version: PROTOCOL_VERSION, zot_version: ZOT_VERSION,
    provider: s.info.provider, model: s.info.model, cwd: s.info.cwd,
    extension_dir: s.dir, data_dir: s.dataDir, capabilities: hostCapabilities(true),
  });
}

const BUILTINS: ReadonlySet<string> = new Set(BUILTIN_TOOL_NAMES);
const REGISTRATION_TYPES = new Set(["register_command", "register_tool", "subscribe"]);

/**
 * Waits for `ready` after hello_ack, then judges the registration frames that arrived in the
 * window (checks `registrations` and `ready`). Returns false when the extension exited meanwhile.
 */
export async function checkRegistration(s: Session): Promise<boolean> {
  const { driver, list, timeouts } = s;
  const mark = driver.lines.length;
  const sentAt = driver.elapsed();
  sendHelloAck(s);
  const outcome = await driver.waitFor((l) => l.frame?.type === "ready", timeouts.ready, mark);
  const end = outcome.kind === "line" ? outcome.line.index : driver.lines.length;
  judgeRegistrations(s, driver.lines.slice(mark, end));
  if (outcome.kind === "line") {
    list.pass("ready", `${outcome.line.at - sentAt} ms after hello_ack`);
    return true;
  }
  if (outcome.kind === "exited") {
    s.exitReported = true;
    list.fail("ready", `${exitPhrase(outcome.status)} before sending ready`);
    return false;
  }
  list.warn("ready", `no ready within ${timeouts.ready} ms of hello_ack: zot auto-readies it as a legacy extension ` +
    "(send ready after the last registration)");
  return true;
}

function judgeRegistrations(s: Session, window: StdoutLine[]): void {
  const problems: string[] = [];
  const warnings: string[] = [];
  const commandKeys = new Set<string>();
  const toolNames = new Set<string>();
  for (const line of window) {
    const type = line.json?.type;
    if (typeof type !== "string" || !REGISTRATION_TYPES.has(type)) continue;
    const frame = line.frame;
    if (!frame) {
      problems.push(`invalid ${type}: ${line.error}`);
      continue;
    }
    if (frame.type === "register_command") {
      const problem = commandRegistrationProblem(frame);
      if (problem) {
        problems.push(`command ${JSON.stringify(frame.name)} would be dropped: ${problem}`);
        continue;
      }
      const key = frame.name.toLowerCase();
      if (commandKeys.has(key)) warnings.push(`command /${frame.name} registered twice (the first one wins)`);
      else s.commands.push(frame.name);
      commandKeys.add(key);
    } else if (frame.type === "register_tool") {
      const problem = toolRegistrationProblem(frame);
      if (problem) {
        problems.push(`tool ${JSON.stringify(frame.name)} would be dropped: ${problem}`);
        continue;
      }
      judgeTool(frame, toolNames, warnings);
      if (!toolNames.has(frame.name)) s.tools.push(frame);
      toolNames.add(frame.name);
    } else if (frame.type === "subscribe") {
      for (const name of frame.events ?? []) {
        if (!isLifecycleEventName(name)) warnings.push(`unknown event "${name}" (zot ignores it)`);
        else if (!s.events.includes(name)) s.events.push(name);
      }
      for (const name of frame.intercept ?? []) {
        if (!isInterceptableEventName(name)) warnings.push(`"${name}" cannot be intercepted (zot ignores it)`);
        else if (needsInterceptV2(name) && !s.capabilities.includes(INTERCEPT_V2)) {
          warnings.push(`"${name}" needs "${INTERCEPT_V2}" in hello's capabilities (zot ignores it without)`);
        } else if (!s.intercepts.includes(name)) s.intercepts.push(name);
      }
      if (frame.intercept_timeout_ms !== undefined && !s.capabilities.includes(INTERCEPT_V2)) {
        warnings.push(`intercept_timeout_ms needs "${INTERCEPT_V2}" in hello's capabilities (zot ignores it without)`);
      }
    }
  }
  const summary = [
    `${s.commands.length} command${s.commands.length === 1 ? "" : "s"}`,
    `${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}`,
    ...(s.events.length ? [`events: ${s.events.join(", ")}`] : []),
    ...(s.intercepts.length ? [`intercept: ${s.intercepts.join(", ")}`] : []),
  ].join("; ");
  if (problems.length) s.list.fail("registrations", `${problems.join("; ")} (valid: ${summary})`);
  else if (warnings.length) s.list.warn("registrations", `${summary}; ${warnings.join("; ")}`);
  else s.list.pass("registrations", summary);
}

function judgeTool(frame: RegisterToolFrame, seen: Set<string>, warnings: string[]): void {
  if (seen.has(frame.name)) warnings.push(`tool ${frame.name} registered twice (the first one wins)`);
  if (BUILTINS.has(frame.name)) warnings.push(`tool ${frame.name} is shadowed by the built-in of that name`);
}
