// /login in the REPL: the prompt line asks for the provider (unless given), then for the key,
// which is never drawn (no echo, not even its length) and never enters the prompt history.
// The controller routes keys here while it is open and runs the check when it completes.
import { logIn } from "../../app/login.ts";
import type { Runtime } from "../../app/runtime.ts";
import { isProviderName, PROVIDER_NAMES, type ProviderName } from "../../providers/index.ts";
import { InputLine } from "./input-line.ts";
import type { Key } from "./keys.ts";
import type { Style } from "./style.ts";
import { sanitize } from "./text.ts";

export type LoginKeyResult =
  | { kind: "continue" }
  | { kind: "cancel" }
  /** The key was entered: check it with `provider`. */
  | { kind: "submit"; provider: ProviderName; key: string };

/** The line a REPL without a key starts with: commands work, the model needs a key first. */
export function loginHint(provider: string): string {
  return `No API key for ${provider} yet: type /login to add one (or run \`zot login\` in a shell). Slash commands work without one.`;
}

export class LoginPrompt {
  private readonly input = new InputLine();
  private provider: ProviderName | undefined;
  /** A problem with the last answer (an unknown provider), shown as a hint. */
  problem: string | undefined;
  /** True while the key is being checked: keys are ignored. */
  checking = false;

  /** `provider` given with /login skips the question; `fallback` is the answer to an empty one. */
  constructor(provider: ProviderName | undefined, private readonly fallback: ProviderName) {
    this.provider = provider;
  }

  /** The prompt line as drawn: the key's text is never part of it. */
  get line(): { label: string; text: string; cursor: number } {
    if (this.provider === undefined) {
      return { label: `provider (${PROVIDER_NAMES.join(", ")}) [${this.fallback}]: `, text: this.input.text, cursor: this.input.cursor };
    }
    return { label: `API key for ${this.provider} (hidden, Esc cancels): `, text: "", cursor: 0 };
  }

  handle(key: Key): LoginKeyResult {
    if (this.checking) return { kind: "continue" };
    if (key.name === "esc" || key.name === "ctrl-c") return { kind: "cancel" };
    if (key.name === "up" || key.name === "down") return { kind: "continue" }; // no history here
    // A pasted key may end in a line break: it is not part of the key.
    const edit = key.name === "paste" ? { ...key, text: (key.text ?? "").replace(/[\r\n]+/g, "") } : key;
    if (this.input.handle(edit) !== "submit") return { kind: "continue" };
    const answer = this.input.text.trim();
    this.input.clear();
    if (this.provider === undefined) {
      const chosen = answer === "" ? this.fallback : answer.toLowerCase();
      if (!isProviderName(chosen)) {
        this.problem = `unknown provider "${answer}" (${PROVIDER_NAMES.join(" or ")})`;
        return { kind: "continue" };
      }
      this.problem = undefined;
      this.provider = chosen;
      return { kind: "continue" };
    }
    if (answer === "") {
      this.problem = "type or paste the key, or press Esc to cancel";
      return { kind: "continue" };
    }
    this.problem = undefined;
    return { kind: "submit", provider: this.provider, key: answer };
  }
}

/** Checks the key with the provider and saves it; the lines that say how it went. */
export async function checkAndSave(rt: Pick<Runtime, "session" | "settings" | "paths">, provider: ProviderName, key: string, s: Style,
  env: Record<string, string | undefined>): Promise<string[]> {
  const current = rt.session.state.provider;
  // The run's base URL is the current provider's; another provider is checked at its public API.
  const baseUrl = provider === current ? rt.settings.baseUrl : undefined;
  const outcome = await logIn({ provider, key, ...(baseUrl ? { baseUrl } : {}), authFile: rt.paths.auth, env });
  const text = sanitize(outcome.message);
  const lines = [outcome.ok ? s.paint("success", `✓ ${text}`) : s.paint("error", `zot: ${text}`)];
  if (outcome.ok && provider !== current) lines.push(s.paint("muted", `This conversation uses ${current}: switch with /model ${provider}/<model>.`));
  return lines;
}
