// The protocol driver: a subprocess speaking zot's NDJSON frames over stdio. Spawning it (in its
// sandbox), noticing its exit, and the graceful `shutdown`; the protocol itself is FramedDriver's.
import type { DriverContext, ExtensionDriver } from "../extension.ts";
import { killProcess, stopProcess } from "../process-stop.ts";
import type { Isolation } from "../sandbox/for-candidate.ts";
import { describeExit, spawnExtension, type ExtensionProcess } from "../spawn.ts";
import { FramedDriver } from "./framed-driver.ts";

export class ProtocolDriver extends FramedDriver {
  readonly execLabel = "exec";
  readonly usesSdk = true;
  protected readonly lineLabel = "stdout line";
  private process: ExtensionProcess | undefined;

  get logPath(): string | undefined {
    return this.process?.logPath;
  }

  get isolation() {
    return this.process?.isolation ?? null;
  }

  protected dataDir(): string {
    return this.process?.dataDir ?? this.ext.dir;
  }

  start(): void {
    const isolation = this.context.sink.isolationFor?.(this.ext.candidate);
    if (!isolation) this.spawn(undefined);
    // Deciding on a sandbox may wait for the bubblewrap probe; the event loop runs meanwhile.
    else void isolation.then((i) => this.spawn(i)).catch((err: unknown) => this.ext.fail(`cannot start: ${(err as Error).message}`));
  }

  private spawn(isolation: Isolation | undefined): void {
    const { ext, sink } = this.context;
    // Shut down (zot stopping, a reload) before its sandbox was decided: it never starts.
    if (ext.stopping || ext.phase !== "starting") return;
    const manifest = ext.candidate.loaded!.manifest;
    let proc: ExtensionProcess;
    try {
      proc = spawnExtension({ name: ext.name, dir: ext.dir, exec: ext.exec, args: manifest.args ?? [],
        logPath: sink.logPath(ext.name), isolation, allowEnv: ext.allowEnv, pythonCacheDir: sink.pythonCacheDir });
    } catch (err) {
      // spawn throws synchronously only for arguments it cannot pass to the OS at all, or a sandbox this machine cannot set up.
      ext.fail(`cannot start: ${(err as Error).message}`);
      return;
    }
    this.process = proc;
    for (const warning of ext.warnings) proc.log(`warning: ${warning}`);
    this.open(proc.stdin, proc.stdout);
    void proc.exited.then((status) => {
      if (ext.stopping || ext.phase === "failed" || ext.phase === "stopped") return;
      const held = status.stdoutHeldOpen ? "; a process it started still held its stdout open (stopped with its process group)" : "";
      ext.fail(`${describeExit(status)} ${ext.phase === "starting" ? "before sending hello" : "unexpectedly"}${held}`);
    });
    // It can never answer again: fail now instead of letting every request wait for its timeout.
    void proc.stdoutClosedEarly.then((early) => {
      if (early && !ext.stopping) ext.fail("closed its stdout but kept running; stopping it");
    });
  }

  log(message: string): void {
    this.process?.log(message);
  }

  abort(reason: string): void {
    this.clearTimers();
    this.conn?.close(reason);
    void killProcess(this.process, this.context.timeouts.shutdownGrace);
  }

  /**
   * Drains queued frames, sends `shutdown`, waits for the exit, then SIGTERM and SIGKILL. The
   * three share one grace period (the spec's 2 s), so a consumer that stopped reading cannot
   * stretch it.
   */
  async shutdown(): Promise<void> {
    this.clearTimers();
    const proc = this.process;
    proc?.rememberDescendants();
    const grace = this.context.timeouts.shutdownGrace;
    const deadline = Date.now() + grace;
    if (this.conn && !this.conn.closed) {
      if (await this.conn.drain(Math.max(0, deadline - Date.now()))) this.conn.send({ type: "shutdown" });
      else this.context.ext.log(`its queued frames did not drain within the ${grace} ms shutdown grace (it stopped reading); no time is left for shutdown`);
    }
    if (proc) await stopProcess(proc, grace, deadline);
    this.conn?.close("the extension was shut down");
  }
}

export const createProtocolDriver = (context: DriverContext): ExtensionDriver => new ProtocolDriver(context);
