// One zot process in a real pseudo-terminal: a detached tmux session the tests type into and
// read back. Every wait polls the pane with a deadline.
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ZOT, type World } from "./support.ts";

const run = promisify(execFile);
export const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
export const EXITED = /\[zot exited (\d+)\]/;

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
let sockets = 0;

/** One zot process in a detached tmux session, 120×40. */
export class Pane {
  private constructor(private readonly socket: string) {}

  /** `tmux`: tmux commands run with the session's creation (`["set", "-g", "window-style", "bg=white"]`). */
  static async start(world: World, args: string[], env: Record<string, string> = {}, tmux: string[][] = []): Promise<Pane> {
    const socket = `zot-e2e-${process.pid}-${++sockets}`;
    const script = join(world.cwd, "..", `${socket}.sh`);
    const exports = Object.entries({ ...world.env, NO_COLOR: "1", ...env }).map(([k, v]) => `export ${k}=${quote(v)}`);
    writeFileSync(script, [
      ...exports,
      `cd ${quote(world.cwd)}`,
      `${quote(process.execPath)} ${quote(ZOT)} ${args.map(quote).join(" ")}`,
      `echo "[zot exited $?]"`,
      "sleep 600",
    ].join("\n"));
    await run("tmux", ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-s", "zot", `sh ${quote(script)}`,
      ...tmux.flatMap((command) => [";", ...command])]);
    const pane = new Pane(socket);
    open.push(pane);
    return pane;
  }

  /** The pane's text; `styled` keeps colours as SGR escapes. */
  async text(styled = false): Promise<string> {
    const { stdout } = await run("tmux", ["-L", this.socket, "capture-pane", "-p", "-J", ...(styled ? ["-e"] : []), "-t", "zot", "-S", "-"]);
    return stdout;
  }

  /** Only what is on screen now (tmux moves a cleared screen into its history). */
  async screen(): Promise<string> {
    const { stdout } = await run("tmux", ["-L", this.socket, "capture-pane", "-p", "-J", "-t", "zot"]);
    return stdout;
  }

  /** The screen's rows as the terminal shows them: a line the terminal wrapped is several rows. */
  async rows(): Promise<string[]> {
    const { stdout } = await run("tmux", ["-L", this.socket, "capture-pane", "-p", "-t", "zot"]);
    return stdout.split("\n");
  }

  /** Named keys (Enter, Escape, C-c, Down, Tab …). */
  async keys(...keys: string[]): Promise<void> {
    for (const key of keys) {
      await run("tmux", ["-L", this.socket, "send-keys", "-t", "zot", key]);
      // A lone Esc is told from the start of an escape sequence by a pause of the REPL's 50 ms
      // escape timeout: wait it out, or the next key typed joins the Esc (Esc + "/" is Alt+/).
      if (key === "Escape") await new Promise((r) => setTimeout(r, 150));
    }
  }

  /** Literal text. */
  async type(text: string): Promise<void> {
    await run("tmux", ["-L", this.socket, "send-keys", "-t", "zot", "-l", text]);
  }

  /** Types `text` and presses Enter; given a `check`, then waits as `until` does and returns the pane text. */
  submit(text: string): Promise<void>;
  submit(text: string, ...until: Parameters<Pane["until"]>): Promise<string>;
  async submit(text: string, ...until: [] | Parameters<Pane["until"]>): Promise<string | void> {
    await this.type(text);
    await this.keys("Enter");
    return until.length === 0 ? undefined : this.until(...until);
  }

  /** Polls until `check` holds for the pane text; fails with the pane's content at the deadline. */
  async until(check: RegExp | string | ((text: string) => boolean), timeoutMs = 10_000, capture = () => this.text()): Promise<string> {
    const test = typeof check === "function" ? check : typeof check === "string" ? (t: string) => t.includes(check) : (t: string) => check.test(t);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = await capture();
      if (test(text)) return text;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(check)}; the pane shows:\n${text}`);
      await new Promise((r) => setTimeout(r, 40));
    }
  }

  /** Waits for zot to exit and returns its exit code. */
  async exitCode(): Promise<number> {
    return Number(EXITED.exec(await this.until(EXITED))![1]);
  }

  kill(): void {
    try {
      execFileSync("tmux", ["-L", this.socket, "kill-server"], { stdio: "ignore" });
    } catch {
      // already gone
    }
  }
}

const open: Pane[] = [];

/** Ends every pane started so far (afterEach). */
export function killPanes(): void {
  for (const pane of open.splice(0)) pane.kill();
}
