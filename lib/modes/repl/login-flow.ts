// /login in the REPL from start to end: it checks the command line (a pasted key is neither shown
// nor kept), opens the questions on the prompt line, routes keys to them, and checks and saves
// the key once it is given. The controller asks it whether it owns the prompt line.
import type { Runtime } from "../../app/runtime.ts";
import { isProviderName, PROVIDER_NAMES, type ProviderName } from "../../providers/index.ts";
import type { Key } from "./keys.ts";
import { PROMPT, oneLine } from "./live-frame.ts";
import { checkAndSave, LoginPrompt } from "./login-prompt.ts";
import type { Style } from "./style.ts";

export interface LoginFlowDeps {
  style: Style;
  env: Record<string, string | undefined>;
  runtime(): Runtime;
  commit(lines: string[]): void;
  render(): void;
  /** Drops a line from the prompt history (a key typed after /login). */
  forget(line: string): void;
}

export class LoginFlow {
  /** /login's questions, while they own the prompt line. */
  prompt: LoginPrompt | undefined;

  constructor(private readonly deps: LoginFlowDeps) {}

  /** /login [provider]: the prompt line asks for the provider (unless given), then the hidden key. */
  start(line: string, args: string): void {
    const { style: s, commit } = this.deps;
    const given = args.trim().toLowerCase();
    if (given !== "" && !isProviderName(given)) {
      // It may be a key pasted after /login: it is neither shown nor kept in the history.
      this.deps.forget(line);
      commit([`${s.bold(PROMPT)}/login …`,
        s.paint("error", `zot: /login takes a provider name (${PROVIDER_NAMES.join(" or ")}); the key is asked for next`)]);
      return;
    }
    commit([`${s.bold(PROMPT)}${oneLine(line)}`]);
    const current = this.deps.runtime().session.state.provider;
    this.prompt = new LoginPrompt(given === "" ? undefined : given as ProviderName, isProviderName(current) ? current : "anthropic");
  }

  handle(key: Key): void {
    const prompt = this.prompt!;
    const result = prompt.handle(key);
    if (result.kind === "cancel") {
      this.prompt = undefined;
      this.deps.commit([this.deps.style.paint("muted", "login cancelled; nothing was saved")]);
    } else if (result.kind === "submit") {
      prompt.checking = true;
      void this.check(result.provider, result.key);
    }
    this.deps.render();
  }

  private async check(provider: ProviderName, key: string): Promise<void> {
    const lines = await checkAndSave(this.deps.runtime(), provider, key, this.deps.style, this.deps.env);
    this.prompt = undefined;
    this.deps.commit(lines);
    this.deps.render();
  }
}
