// `zot ext serve FOLDER [--port N] [--host H] [--path P]`: runs a stdio extension behind a
// WebSocket server, one process per accepted connection (each connection is one zot session), so
// a zot elsewhere can use it through a manifest `url`. Each process starts as zot's host would
// start it (sandbox, PID namespace, environment filter). Connections need the token (ZOT_SERVE_TOKEN,
// or one made up and printed) and, on loopback, a loopback Host and no foreign browser Origin.
// Runs until SIGINT/SIGTERM, then closes every connection, stops every process and exits 130.
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { defineCommand } from "citty";
import { loadManifest } from "../../extensions/catalog/manifest.ts";
import { notRunnable, resolveExec } from "../../extensions/runtime/exec-resolve.ts";
import { isolationFor } from "../../extensions/runtime/sandbox/for-candidate.ts";
import type { Candidate } from "../../extensions/catalog/candidate.ts";
import { passedEnv, userFailurePolicies } from "../../extensions/catalog/permissions/user-policy.ts";
import { readConfig } from "../../config.ts";
import { extensionLogPath, zotPaths } from "../../paths.ts";
import { checkUpgrade, newAccessToken } from "../../protocol/socket-access.ts";
import { MAX_FRAME_BYTES } from "../../protocol/limits.ts";
import { wsUrl } from "../../protocol/socket-message.ts";
import { isLoopbackHost } from "../../providers/credentials.ts";
import { printable } from "../../terminal-text.ts";
import { UsageError } from "./args.ts";
import { bridge, type Bridge } from "./serve-bridge.ts";

const DEFAULT_KILL_GRACE_MS = 2000;

function parseCount(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(String(value)) || !Number.isSafeInteger(n)) throw new UsageError(`--${name} must be a whole number, got "${String(value)}"`);
  return n;
}

export const serveCommand = defineCommand({
  meta: { name: "serve", description: "Serve a stdio extension over WebSocket, one process per connection. zot reaches it with a manifest url" },
  args: {
    folder: { type: "positional", description: "The extension folder (holding extension.json with exec)", required: true },
    port: { type: "string", valueHint: "N", description: "Port to listen on (default 0: any free port, printed)" },
    host: { type: "string", valueHint: "H", description: "Address to bind (default 127.0.0.1)" },
    path: { type: "string", valueHint: "P", description: "URL path to accept connections on (default /)" },
    "kill-grace-ms": { type: "string", valueHint: "N",
      description: `How long a process gets after SIGTERM before SIGKILL (default ${DEFAULT_KILL_GRACE_MS})` },
    sandbox: { type: "boolean", description: "Run it in the OS sandbox its permissions describe, as zot does (--no-sandbox: as it is)" },
  },
  async run({ args }) {
    const dir = resolve(String(args.folder));
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${args.folder}: no such folder`);
    const port = parseCount(args.port, "port", 0);
    if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
    const killGraceMs = parseCount(args["kill-grace-ms"], "kill-grace-ms", DEFAULT_KILL_GRACE_MS);
    const host = args.host === undefined ? "127.0.0.1" : String(args.host);
    const path = args.path === undefined ? "/" : String(args.path);
    if (!path.startsWith("/")) throw new UsageError(`--path must start with "/", got "${path}"`);

    const loaded = await loadManifest(dir);
    const { manifest, kind } = loaded;
    if (kind !== "protocol" || !manifest.exec) {
      throw new Error(`${manifest.name} is not a stdio extension (no exec in its extension.json); only those can be served`);
    }
    const command = resolveExec(dir, manifest.exec);
    const problem = notRunnable(command);
    if (problem) throw new Error(problem);

    const stderr = (text: string) => void process.stderr.write(text);
    // Started as zot's host starts an --ext folder: its permissions, sandbox and passed variables.
    const paths = zotPaths(process.env);
    const candidate: Candidate = { dir, scope: "explicit", name: manifest.name, loaded, decision: "spawn", warnings: [] };
    const isolation = await isolationFor(candidate, { enabled: args.sandbox !== false }, { cwd: process.cwd(), paths });
    const allowEnv = passedEnv(userFailurePolicies(await readConfig(paths.config)), candidate, process.cwd());
    const logPath = extensionLogPath(paths, manifest.name);
    const chosenToken = process.env.ZOT_SERVE_TOKEN || undefined;
    const token = chosenToken ?? newAccessToken();
    const rules = { loopbackOnly: isLoopbackHost(host), token, tokenAtUpgrade: true };
    // Loaded here: every other `zot ext` command starts without the socket library.
    const { WebSocketServer } = await import("ws");
    const wss = new WebSocketServer({ host, port, path, maxPayload: MAX_FRAME_BYTES + 2,
      verifyClient: ({ req }, done) => {
        const verdict = checkUpgrade(req, rules);
        if (verdict.ok) done(true);
        else done(false, verdict.status, verdict.reason);
      } });
    const bridges = new Set<Bridge>();
    let next = 0;
    wss.on("connection", (socket) => {
      const id = ++next;
      const b = bridge(socket, { spawn: { name: manifest.name, dir, exec: manifest.exec!, args: manifest.args ?? [], logPath, isolation, allowEnv,
        pythonCacheDir: join(paths.home, "cache", "python") }, id, killGraceMs, stderr });
      stderr(`[${id}] zot ext serve: connection accepted, extension pid ${b.pid ?? "none"} (its stderr: ${logPath})\n`);
      bridges.add(b);
      socket.once("close", () => bridges.delete(b));
    });
    await new Promise<void>((ok, fail) => {
      wss.once("listening", ok);
      wss.once("error", fail);
    }).catch((err: Error) => {
      throw new Error(`cannot listen on ${host}:${port}: ${err.message}`);
    });
    const address = wss.address();
    const bound = typeof address === "object" && address ? address.port : port;
    stderr(`listening on ${wsUrl(host, bound, path)}\n`);
    // A token it made up is shown once, here; a manifest sends it as a header.
    if (!chosenToken) stderr(`token: ${token} (clients send Authorization: Bearer TOKEN or ?token=TOKEN; a manifest: "headers": {"Authorization": "Bearer \${ZOT_SERVE_TOKEN}"}; set ZOT_SERVE_TOKEN to choose it)\n`);
    if (!isLoopbackHost(host)) {
      stderr(`warning: ${printable(host)} is not a loopback address: anyone who can reach it can use ${manifest.name} `
        + `(and run it with your permissions). zot refuses plain ws:// to a non-loopback host unless the manifest says "insecure": true\n`);
    }

    // Listening (not once): while a listener remains, the process-group safety net leaves the
    // graceful stop below to us instead of re-raising the signal.
    const signal = await new Promise<NodeJS.Signals>((ok) => {
      process.on("SIGINT", () => ok("SIGINT"));
      process.on("SIGTERM", () => ok("SIGTERM"));
    });
    stderr(`zot ext serve: ${signal}, stopping ${bridges.size} connection(s)\n`);
    await Promise.all([...bridges].map((b) => b.stop()));
    await new Promise<void>((ok) => wss.close(() => ok()));
    return 130;
  },
});
