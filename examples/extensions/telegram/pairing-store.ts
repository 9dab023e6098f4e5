// The paired Telegram chat, kept in telegram.json in the extension's data directory (hello_ack's
// data_dir) so the pairing survives restarts. The file is snake_case like the wire; the bridge
// sees camelCase.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface Pairing {
  chatId: number;
  userId: number;
  /** @username or first name, for status lines. */
  name: string;
  /** ISO time of pairing. */
  pairedAt: string;
}

export class PairingStore {
  private current: Pairing | undefined;

  /** Loads `file` if it exists; a missing or unreadable one means "not paired" (and says why). */
  constructor(readonly file: string, log: (message: string) => void) {
    let raw: string;
    try {
      raw = readFileSync(file, "utf8");
    } catch {
      return;
    }
    try {
      const data = JSON.parse(raw) as Record<string, unknown>;
      if (typeof data.chat_id !== "number" || typeof data.user_id !== "number") throw new Error("chat_id and user_id must be numbers");
      this.current = {
        chatId: data.chat_id,
        userId: data.user_id,
        name: typeof data.name === "string" ? data.name : String(data.user_id),
        pairedAt: typeof data.paired_at === "string" ? data.paired_at : "",
      };
    } catch (err) {
      // Not paired is the safe reading of a broken file: nobody's messages become prompts.
      log(`ignoring ${file}: ${(err as Error).message}; pair again with /telegram pair`);
    }
  }

  get pairing(): Pairing | undefined {
    return this.current;
  }

  save(pairing: Pairing): void {
    this.current = pairing;
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    const wire = { chat_id: pairing.chatId, user_id: pairing.userId, name: pairing.name, paired_at: pairing.pairedAt };
    // Write-then-rename, so a crash never leaves half a file.
    writeFileSync(tmp, `${JSON.stringify(wire, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  clear(): void {
    this.current = undefined;
    rmSync(this.file, { force: true });
  }
}
