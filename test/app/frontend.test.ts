// The Frontend contract: everything a run shows or asks goes through the one frontend it was
// built with. A real runtime (session + extension host) against the scripted model server,
// with real extension subprocesses, and a frontend that records each call.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ZotEvent } from "../../lib/events/index.ts";
import type { ConfirmRequest } from "../../lib/agent/loop/permissions.ts";
import type { PendingExtension } from "../../lib/extensions/catalog/trust/host-trust.ts";
import type { Frontend, SessionStartInfo } from "../../lib/app/frontend.ts";
import type { RunConfigInput } from "../../lib/app/run-config.ts";
import { createRuntime, type Runtime } from "../../lib/app/runtime.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { command, sandbox, writeExtension, type Sandbox } from "../extensions/helpers.ts";

/** A frontend that keeps every call it gets; its answers are set per test. */
class RecordingFrontend implements Frontend {
  readonly warnings: string[] = [];
  readonly events: ZotEvent[] = [];
  readonly starts: SessionStartInfo[] = [];
  readonly confirmations: ConfirmRequest[] = [];
  readonly trustQuestions: PendingExtension[][] = [];
  readonly submitted: Array<[string, string]> = [];
  trustAnswer = false;

  showEvents(bus: Parameters<Frontend["showEvents"]>[0], info: SessionStartInfo): void {
    this.starts.push(info);
    bus.subscribe((event) => this.events.push(event));
  }

  warn(message: string): void {
    this.warnings.push(message);
  }

  // A method: the runtime must call it on the frontend, not as a detached function.
  async confirm(request: ConfirmRequest): Promise<"no"> {
    this.confirmations.push(request);
    return "no";
  }

  async askTrust(pending: PendingExtension[]): Promise<boolean> {
    this.trustQuestions.push(pending);
    return this.trustAnswer;
  }

  submit(extension: string, text: string): void {
    this.submitted.push([extension, text]);
  }
}

let sb: Sandbox;
let server: ModelServer | undefined;
let rt: Runtime | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(async () => {
  await rt?.close({ abort: true });
  rt = undefined;
  await server?.close();
  server = undefined;
  await sb.cleanup();
});

function configFor(extra: RunConfigInput = {}): RunConfigInput {
  return {
    cwd: sb.cwd, provider: "anthropic", model: "claude-sonnet-4-6", apiKey: "test-key",
    baseUrl: server?.url ?? "http://127.0.0.1:9", session: { kind: "none" }, skills: { enabled: false },
    extensions: { discover: false },
    ...extra,
  };
}

async function start(frontend: Frontend, extra: RunConfigInput = {}, interactive = false): Promise<Runtime> {
  rt = await createRuntime(configFor(extra), { frontend, env: { ZOT_HOME: sb.paths.home }, interactive });
  return rt;
}

describe("a runtime talks to its frontend", () => {
  it("showEvents gets the bus before extensions start, so a broken extension's load error reaches it", async () => {
    const broken = writeExtension(sb.scratch, "broken", { name: "broken", exitBeforeHello: 3 });
    const frontend = new RecordingFrontend();
    const runtime = await start(frontend, { extensions: { paths: [broken], discover: false } });
    expect(frontend.starts).toEqual([{ sessionId: runtime.session.sessionId, cwd: sb.cwd, provider: "anthropic", model: "claude-sonnet-4-6" }]);
    expect(frontend.events).toContainEqual(expect.objectContaining({ type: "ext_error", extension: "broken" }));
    expect(runtime.extensionReports()).toMatchObject([{ name: "broken", status: "error" }]);
  });

  it("warn gets the run's warnings: a config.json that is not JSON", async () => {
    writeFileSync(sb.paths.config, "{ not json");
    const frontend = new RecordingFrontend();
    await start(frontend);
    expect(frontend.warnings).toEqual([expect.stringMatching(/config\.json is not valid JSON .*; ignoring it/)]);
  });

  it("confirm is asked before a gated tool call (yolo off); its no keeps the tool from running", async () => {
    const marker = join(sb.scratch, "ran");
    server = await startModelServer([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: `touch ${marker}` } }] },
      { text: "Understood." },
    ]);
    const frontend = new RecordingFrontend();
    const runtime = await start(frontend, { yolo: false });
    const result = await runtime.prompt("make the file");
    expect(result).toMatchObject({ stop: "end_turn", text: "Understood." });
    expect(frontend.confirmations).toMatchObject([{ toolId: "t1", toolName: "bash", toolArgs: { command: `touch ${marker}` } }]);
    expect(existsSync(marker)).toBe(false);
    expect(frontend.events.find((e) => e.type === "tool_result")).toMatchObject({ tool_name: "bash", executed: false });
  });

  it("askTrust is asked about the project's untrusted extensions; a yes starts them", async () => {
    writeExtension(sb.projectDir, "local", { name: "local", register: [command("hi")] });
    const frontend = new RecordingFrontend();
    frontend.trustAnswer = true;
    const runtime = await start(frontend, { extensions: { discover: true } });
    expect(frontend.trustQuestions).toEqual([[expect.objectContaining({ name: "local" })]]);
    expect(runtime.commands()).toEqual([expect.objectContaining({ name: "hi", extension: "local" })]);
  });

  it("submit gets an extension's submit frame in an interactive run", async () => {
    const dir = writeExtension(sb.scratch, "sub", { name: "sub", register: [command("s")],
      on: { command_invoked: `ctx.send({type:"submit",text:"Summarize."}); ctx.send({type:"command_response",id:msg.id,action:"noop"})` } });
    const frontend = new RecordingFrontend();
    const runtime = await start(frontend, { extensions: { paths: [dir], discover: false } }, true);
    expect(await runtime.slash("/s", { interactive: true })).toEqual({ result: { kind: "noop" } });
    expect(frontend.submitted).toEqual([["sub", "Summarize."]]);
  });
});
