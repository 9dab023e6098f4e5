// Putting a new zot binary in place of the old one without ever leaving a half-written file:
// the new one is written beside it (same folder, so same file system), made executable, tried,
// then renamed over it. Windows will not overwrite or delete a running .exe but does let it be
// renamed, so there the old one is moved aside first and removed on the next upgrade.
import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Writes `data` beside `target` as a hidden executable and returns its path. */
export function stageBinary(target: string, data: Uint8Array, platform: NodeJS.Platform): string {
  const staged = join(dirname(target), `.${basename(target)}.new-${process.pid}${platform === "win32" ? ".exe" : ""}`);
  writeFileSync(staged, data, { mode: 0o755 });
  // Past the umask: the binary must run for everyone who could run the old one.
  chmodSync(staged, 0o755);
  return staged;
}

export function removeStaged(staged: string): void {
  rmSync(staged, { force: true });
}

/** What `<file> --version` prints, or an error saying why the file does not run here. */
export function versionOf(file: string): string {
  const r = spawnSync(file, ["--version"], { encoding: "utf8", timeout: 30_000, stdio: ["ignore", "pipe", "pipe"] });
  if (r.error) throw new Error(`the downloaded zot does not run on this machine (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})`);
  if (r.status !== 0) throw new Error(`the downloaded zot does not run on this machine (--version exited with ${r.status ?? r.signal}${r.stderr.trim() ? `: ${r.stderr.trim().split("\n")[0]}` : ""})`);
  return r.stdout.trim().split("\n")[0] ?? "";
}

/** Renames `staged` over `target`; on Windows moves the running `target` aside first. */
export function swapIn(staged: string, target: string, platform: NodeJS.Platform): void {
  if (platform !== "win32") {
    renameSync(staged, target);
    return;
  }
  const aside = `${target}.old-${process.pid}`;
  renameSync(target, aside);
  try {
    renameSync(staged, target);
  } catch (err) {
    renameSync(aside, target);
    throw err;
  }
  try {
    unlinkSync(aside);
  } catch {
    // Still running (Windows): removeLeftovers takes it on the next upgrade.
  }
}

/** Old binaries a previous Windows upgrade had to leave beside `target`. */
export function removeLeftovers(target: string): void {
  const prefix = `${basename(target)}.old-`;
  let names: string[] = [];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    try {
      unlinkSync(join(dirname(target), name));
    } catch {
      // in use or not ours to remove: harmless where it is
    }
  }
}
