// The OS sandbox of extensions that declare fs or network permissions, with real bubblewrap and
// a real Node extension: what it can and cannot read, write and connect to.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ManifestPermissions } from "../../../lib/extensions/catalog/permissions/manifest-permissions.ts";
import { extensionLogPath } from "../../../lib/paths.ts";
import { findOnPath } from "../../../lib/extensions/runtime/exec-resolve.ts";
import { sandbox, startHost, type Sandbox, type TestHost } from "../helpers.ts";
import { probe as probeIn, probeExtension as probeWith } from "../probe-extension.ts";

let sb: Sandbox;
let server: Server | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(async () => {
  server?.close();
  server = undefined;
  await sb.cleanup();
});

// CI installs bubblewrap (.ci/run); a machine without it fails here instead of skipping.
it("bubblewrap is installed for these tests", () => {
  expect(findOnPath("bwrap"), "install bubblewrap: apt-get install bubblewrap").toBeTruthy();
});

/** The probe extension with these permissions, in the global root. */
const probeExtension = (permissions: ManifestPermissions, name = "probe") => probeWith(sb, { permissions }, name);
const probe = (t: TestHost, args: Record<string, unknown>) => probeIn(t, sb, args);

/** A loopback server the extension may or may not reach. */
async function loopback(): Promise<number> {
  server = createServer((socket) => socket.end());
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return (server!.address() as { port: number }).port;
}

describe("a sandboxed extension", () => {
  it("gets an allowlisted environment (no credentials, no other variables) plus what its permissions.env lists", async () => {
    const names = ["ZOT_PROBE_API_KEY", "ZOT_PROBE_TOKEN", "ZOT_PROBE_PLAIN", "OPENAI_API_KEYS", "DATABASE_URL", "LANG"];
    const saved = { ...process.env };
    for (const n of names) process.env[n] = "value-of-" + n;
    process.env.DATABASE_URL = "postgres://u:pw@db/x";
    try {
      probeExtension({ network: "none", env: ["ZOT_PROBE_TOKEN"] });
      const t = await startHost(sb);
      expect(await probe(t, { action: "env", names: [...names, "PATH"] })).toEqual({ isError: false,
        text: `ZOT_PROBE_API_KEY=- ZOT_PROBE_TOKEN=value-of-ZOT_PROBE_TOKEN ZOT_PROBE_PLAIN=- OPENAI_API_KEYS=- DATABASE_URL=- LANG=value-of-LANG PATH=${process.env.PATH}` });
    } finally {
      for (const n of names) delete process.env[n];
      Object.assign(process.env, saved);
    }
  });

  it("cannot read a file outside its grant (a secret in HOME) but reads one inside it", async () => {
    const secret = join(sb.root, "home-dir", "secret.txt");
    mkdirSync(join(sb.root, "home-dir"), { recursive: true });
    writeFileSync(secret, "hunter2");
    writeFileSync(join(sb.cwd, "notes.txt"), "project notes");
    probeExtension({ fs: { read: ["{project}"] }, network: "none" });
    const t = await startHost(sb);
    const denied = await probe(t, { action: "read", path: secret });
    expect(denied).toEqual({ text: "read: ENOENT", isError: true });
    expect(await probe(t, { action: "read", path: join(sb.cwd, "notes.txt") })).toEqual({ text: "read: project notes", isError: false });
    expect(readFileSync(extensionLogPath(sb.paths, "probe"), "utf8")).toContain("sandboxed with bubblewrap");
  });

  it("cannot write outside its folder, nor into its folder without a grant, but writes where granted", async () => {
    const dir = probeExtension({ fs: { read: ["{project}"], write: ["{project}/out"] } });
    mkdirSync(join(sb.cwd, "out"));
    const t = await startHost(sb);
    expect(await probe(t, { action: "write", path: join(sb.cwd, "escaped.txt") })).toEqual({ text: "write: EROFS", isError: true });
    expect(await probe(t, { action: "write", path: join(dir, "own.txt") })).toEqual({ text: "write: EROFS", isError: true });
    expect(existsSync(join(sb.cwd, "escaped.txt"))).toBe(false);
    expect(await probe(t, { action: "write", path: join(sb.cwd, "out", "ok.txt"), text: "fine" })).toEqual({ text: "wrote", isError: false });
    expect(readFileSync(join(sb.cwd, "out", "ok.txt"), "utf8")).toBe("fine");
  });

  it("writes its data_dir, a folder of its own outside its read-only install", async () => {
    probeExtension({ fs: {} });
    const t = await startHost(sb);
    const dataDir = join(sb.paths.home, "extension-data", "probe");
    expect(await probe(t, { action: "write", path: join(dataDir, "state.json"), text: "{}" })).toEqual({ text: "wrote", isError: false });
    expect(readFileSync(join(dataDir, "state.json"), "utf8")).toBe("{}");
  });

  it("cannot connect to a loopback server without network, and can with network: all", async () => {
    const port = await loopback();
    probeExtension({ network: "none" }, "offline");
    probeExtension({ network: "all" }, "online");
    const t = await startHost(sb);
    const tools = t.host.tools();
    expect(tools).toHaveLength(1); // both register "probe": the first (offline) wins
    expect(await probe(t, { action: "connect", port })).toEqual({ text: "connect: ECONNREFUSED", isError: true });
    await t.host.shutdown();

    const online = await startHost(sb, { explicit: [join(sb.globalDir, "online")], discover: false });
    expect(await probe(online, { action: "connect", port })).toEqual({ text: "connected", isError: false });
  });

  it("a host list runs without network, and the log says the list is not enforced", async () => {
    const port = await loopback();
    probeExtension({ network: ["127.0.0.1"] });
    const t = await startHost(sb);
    expect((await probe(t, { action: "connect", port })).isError).toBe(true);
    expect(readFileSync(extensionLogPath(sb.paths, "probe"), "utf8")).toContain("which zot's sandbox cannot enforce");
  });

  it("does not start when the sandbox cannot be set up, and says why and how to install bubblewrap", async () => {
    probeExtension({ network: "none" });
    const t = await startHost(sb, { sandbox: { enabled: true, options: { path: join(sb.root, "no-such-bin") } } });
    const report = t.host.reports()[0]!;
    expect(report.errors.join("\n")).toMatch(/runs in an OS sandbox, and bubblewrap \(bwrap\) is not installed: install bubblewrap \(Debian\/Ubuntu: apt-get install bubblewrap/);
    expect(report.errors.join("\n")).toContain("--no-sandbox");
    expect(t.host.tools()).toEqual([]);
    expect(t.of("ext_error").map((e) => e.extension)).toEqual(["probe"]);
  });

  it("a bubblewrap that cannot create namespaces is reported with its own error", async () => {
    const fake = join(sb.root, "fake-bwrap");
    writeFileSync(fake, "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n", { mode: 0o755 });
    probeExtension({ network: "none" });
    const t = await startHost(sb, { sandbox: { enabled: true, options: { bwrap: fake } } });
    expect(t.host.reports()[0]!.errors.join("\n")).toContain("could not create a sandbox: bwrap: No permissions to creating new namespace");
    expect(t.host.tools()).toEqual([]);
  });

  it("--no-sandbox runs it unsandboxed, with a warning in its log", async () => {
    const secret = join(sb.root, "secret.txt");
    writeFileSync(secret, "hunter2");
    probeExtension({ network: "none" });
    const t = await startHost(sb, { sandbox: { enabled: false } });
    expect(await probe(t, { action: "read", path: secret })).toEqual({ text: "read: hunter2", isError: false });
    expect(readFileSync(extensionLogPath(sb.paths, "probe"), "utf8")).toContain("--no-sandbox runs it unsandboxed");
  });

  it("--no-sandbox still passes the credential variables its permissions.env names, and no other", async () => {
    const names = ["ZOT_PROBE_TOKEN", "ZOT_PROBE_API_KEY", "ZOT_PROBE_PLAIN"];
    for (const n of names) process.env[n] = "value-of-" + n;
    try {
      probeExtension({ network: "none", env: ["ZOT_PROBE_TOKEN"] });
      const t = await startHost(sb, { sandbox: { enabled: false } });
      expect(await probe(t, { action: "env", names })).toEqual({ isError: false,
        text: "ZOT_PROBE_TOKEN=value-of-ZOT_PROBE_TOKEN ZOT_PROBE_API_KEY=- ZOT_PROBE_PLAIN=value-of-ZOT_PROBE_PLAIN" });
    } finally {
      for (const n of names) delete process.env[n];
    }
  });
});
