// Safety net for extension process groups (termination itself lives in lib/process/group.ts):
// groups still registered when the host process exits (a crash, process.exit
// without a graceful shutdown, a fatal signal nobody handles) are SIGKILLed synchronously, so no
// extension outlives zot.
import { signalGroup } from "../../process/group.ts";

const liveGroups = new Set<number>();
let exitHookInstalled = false;
const FATAL_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

function killAll(): void {
  for (const group of liveGroups) signalGroup(group, "SIGKILL");
}

/**
 * A signal that would kill zot by default skips "exit" handlers. When no one else listens for
 * it, kill the groups and re-raise it so the default action still applies; when someone does,
 * they own the graceful path (which ends in shutdown() or process.exit).
 */
function onFatalSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  killAll();
  process.removeListener(signal, onFatalSignal);
  process.kill(process.pid, signal);
}

export function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", killAll);
  if (process.platform !== "win32") for (const signal of FATAL_SIGNALS) process.on(signal, onFatalSignal);
}

export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
}
