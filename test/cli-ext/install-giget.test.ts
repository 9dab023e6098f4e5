// `zot ext install gh:owner/repo…` and tarball URLs, downloaded with giget from a loopback
// server (GIGET_GITHUB_URL), including archives that try to write outside the folder.
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runZot, type Sandbox } from "./support/cli.ts";
import { tarGz, type TarEntry } from "./support/tar.ts";

const manifest = (name: string) => JSON.stringify({ name, version: "3.1.0", exec: "./run.sh" });

const ARCHIVES: Record<string, TarEntry[]> = {
  "/repos/o/good/tarball/main": [
    { path: "o-good-1a2b/", type: "dir" },
    { path: "o-good-1a2b/extension.json", type: "file", content: manifest("good") },
    { path: "o-good-1a2b/run.sh", type: "file", content: "#!/bin/sh\n", mode: 0o755 },
    { path: "o-good-1a2b/lib/", type: "dir" },
    { path: "o-good-1a2b/lib/data.txt", type: "file", content: "data" },
    { path: "o-good-1a2b/data-link", type: "symlink", linkpath: "lib/data.txt" },
  ],
  "/repos/o/mono/tarball/v2": [
    { path: "o-mono-9f/README.md", type: "file", content: "monorepo" },
    { path: "o-mono-9f/sub/ext/extension.json", type: "file", content: manifest("from-subdir") },
    { path: "o-mono-9f/sub/ext/run.sh", type: "file", content: "#!/bin/sh\n", mode: 0o755 },
  ],
  "/repos/o/dotdot/tarball/main": [
    { path: "o-dotdot-1/extension.json", type: "file", content: manifest("dotdot") },
    { path: "o-dotdot-1/../../evil.txt", type: "file", content: "evil" },
    { path: "o-dotdot-1/sub/../../../evil2.txt", type: "file", content: "evil" },
  ],
  "/repos/o/escape/tarball/main": [
    { path: "o-escape-1/extension.json", type: "file", content: manifest("escape") },
    { path: "o-escape-1/outside", type: "symlink", linkpath: "../../../../outside-target" },
  ],
  "/repos/o/through/tarball/main": [
    { path: "o-through-1/extension.json", type: "file", content: manifest("through") },
    { path: "o-through-1/up", type: "symlink", linkpath: "../../.." },
    { path: "o-through-1/up/through-evil.txt", type: "file", content: "evil" },
  ],
  "/repos/o/noext/tarball/main": [
    { path: "o-noext-1/README.md", type: "file", content: "no manifest" },
  ],
  "/downloads/pkg.tar.gz": [
    { path: "pkg/extension.json", type: "file", content: manifest("from-tarball") },
    { path: "pkg/run.sh", type: "file", content: "#!/bin/sh\n", mode: 0o755 },
  ],
};

let server: Server;
let baseUrl: string;
const requests: string[] = [];
/** Paths the server answers with a 500, as if the host had gone bad after a success. */
const failing = new Set<string>();

beforeAll(async () => {
  const bodies = new Map(Object.entries(ARCHIVES).map(([path, entries]) => [path, tarGz(entries)]));
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    // Accepts and never answers, or answers the headers and half the body and goes quiet.
    if (req.url?.startsWith("/silent/")) return;
    if (req.url?.startsWith("/stalls/")) {
      const body = bodies.get("/downloads/pkg.tar.gz")!;
      res.writeHead(200, { "content-type": "application/gzip", "content-length": body.length });
      res.write(body.subarray(0, body.length >> 1));
      return;
    }
    if (failing.has(req.url ?? "")) {
      res.writeHead(500).end("broken");
      return;
    }
    const body = bodies.get(req.url ?? "");
    if (!body) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "application/gzip", "content-length": body.length });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
}));

let sb: Sandbox;
beforeEach(() => { sb = makeSandbox(); });
afterEach(() => sb.cleanup());

const zot = (...args: string[]) =>
  runZot(["ext", ...args], { cwd: sb.project, env: { ...sb.env, GIGET_GITHUB_URL: baseUrl } });

/** Every path in the sandbox outside giget's cache, relative to the sandbox. */
function sandboxFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (path === join(sb.base, "cache")) continue;
      out.push(relative(sb.base, path));
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(sb.base);
  return out.sort();
}

describe("install from a giget source", () => {
  it("downloads gh:owner/repo through GIGET_GITHUB_URL, keeping modes and inside links", async () => {
    const r = await zot("install", "--yes", "gh:o/good");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("Downloading gh:o/good");
    expect(requests).toContain("GET /repos/o/good/tarball/main");
    const dest = join(sb.globalRoot, "good");
    expect(r.stdout).toContain(`Installed good 3.1.0 (global) in ${dest}`);
    expect(readdirSync(dest).sort()).toEqual([".zot-install.json", "data-link", "extension.json", "lib", "run.sh"]);
    expect(statSync(join(dest, "run.sh")).mode & 0o111).not.toBe(0);
    expect(lstatSync(join(dest, "data-link")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dest, "data-link"))).toBe("lib/data.txt");
    expect(readdirSync(sb.globalRoot)).toEqual(["good"]);
  });

  it("takes a sub-folder and a ref: gh:owner/repo/sub/dir#ref", async () => {
    const r = await zot("install", "--yes", "gh:o/mono/sub/ext#v2", "--project");
    expect(r.code).toBe(0);
    expect(requests).toContain("GET /repos/o/mono/tarball/v2");
    expect(readdirSync(join(sb.projectRoot, "from-subdir")).sort()).toEqual([".zot-install.json", "extension.json", "run.sh"]);
  });

  it("downloads an http(s) tarball URL", async () => {
    const r = await zot("install", "--yes", `${baseUrl}/downloads/pkg.tar.gz`);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(sb.globalRoot, "from-tarball", "extension.json"), "utf8")).name).toBe("from-tarball");
  });

  it("refuses an archive with ../ entries, naming them, and writes nothing outside", async () => {
    const r = await zot("install", "--yes", "gh:o/dotdot");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: the archive from gh:o\/dotdot has entries outside its folder \(\.\.\/\.\.\/evil\.txt, sub\/\.\.\/\.\.\/\.\.\/evil2\.txt\)/m);
    expect(readdirSync(sb.globalRoot)).toEqual([]);
    expect(sandboxFiles().filter((p) => p.includes("evil"))).toEqual([]);
  });

  it("refuses an archive whose symlink escapes the folder, and writes nothing outside", async () => {
    const r = await zot("install", "--yes", "gh:o/escape");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: the archive from gh:o\/escape has an entry that could not be extracted safely \(outside:/m);
    expect(readdirSync(sb.globalRoot)).toEqual([]);
    expect(sandboxFiles().filter((p) => p.includes("outside"))).toEqual([]);
  });

  it("refuses an escaping symlink even when a later entry recreates its path as a folder", async () => {
    const r = await zot("install", "--yes", "gh:o/through");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: the archive from gh:o\/through has an entry that could not be extracted safely \(up:/m);
    expect(readdirSync(sb.globalRoot)).toEqual([]);
    expect(sandboxFiles().filter((p) => p.includes("through-evil"))).toEqual([]);
  });

  it("rolls back an archive without extension.json", async () => {
    const r = await zot("install", "--yes", "gh:o/noext");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/gh:o\/noext has no extension\.json at its top level/);
    expect(readdirSync(sb.globalRoot)).toEqual([]);
  });

  it("reports a failed download", async () => {
    const r = await zot("install", "--yes", "gh:o/missing");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: download of gh:o\/missing failed: .*404/m);
    expect(readdirSync(sb.globalRoot)).toEqual([]);
    expect(existsSync(join(sb.globalRoot, "missing"))).toBe(false);
  });
});

/** A loopback port that was free a moment ago: connecting to it is refused. */
function closedPort(): Promise<number> {
  const probe = createServer();
  return new Promise((resolve) => probe.listen(0, "127.0.0.2", () => {
    const { port } = probe.address() as AddressInfo;
    probe.close(() => resolve(port));
  }));
}

describe("a download is never served from a cache", () => {
  it("a 404 and a refused connection after a cached success each fail, naming the URL and the error, and install nothing", async () => {
    const first = await zot("install", "--yes", `${baseUrl}/downloads/pkg.tar.gz`);
    expect(first.code).toBe(0);
    const missing = await zot("install", "--yes", `${baseUrl}/nope/pkg.tar.gz`, "--project");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`zot: download of ${baseUrl}/nope/pkg.tar.gz failed: HTTP 404 Not Found; nothing was installed`);
    expect(missing.stdout).toBe("");
    // A port nothing listens on (fetch itself refuses some ports, such as 9, before connecting).
    const closed = await closedPort();
    const refused = await zot("install", "--yes", `http://127.0.0.2:${closed}/pkg.tar.gz`, "--project");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`zot: download of http://127.0.0.2:${closed}/pkg.tar.gz failed: connect ECONNREFUSED 127.0.0.2:${closed}`);
    expect(refused.stderr).toContain("; nothing was installed");
    expect(existsSync(sb.projectRoot) ? readdirSync(sb.projectRoot) : []).toEqual([]);
    expect(readdirSync(sb.globalRoot)).toEqual(["from-tarball"]);
  });

  it("a gh: source whose server fails after a success reports the HTTP status and keeps the installed copy", async () => {
    expect((await zot("install", "--yes", "gh:o/good")).code).toBe(0);
    failing.add("/repos/o/good/tarball/main");
    try {
      const again = await zot("install", "--yes", "gh:o/good", "--force");
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`zot: download of gh:o/good failed: HTTP 500 Internal Server Error (${baseUrl}/repos/o/good/tarball/main); nothing was installed`);
      expect(readdirSync(sb.globalRoot)).toEqual(["good"]);
      expect(readdirSync(join(sb.globalRoot, "good")).sort()).toEqual([".zot-install.json", "data-link", "extension.json", "lib", "run.sh"]);
    } finally {
      failing.delete("/repos/o/good/tarball/main");
    }
    // Nothing of either download is kept in giget's cache.
    expect(existsSync(join(sb.base, "cache", "giget")) ? readdirSync(join(sb.base, "cache", "giget", "zot-download")) : []).toEqual([]);
  });
});

describe("a download has a deadline counted as time without progress", () => {
  it("a server that accepts and never answers is given up after --timeout-ms, nothing installed", async () => {
    const r = await zot("install", "--yes", `${baseUrl}/silent/pkg.tar.gz`, "--timeout-ms", "300");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`zot: download of ${baseUrl}/silent/pkg.tar.gz failed: no answer within 300 ms; nothing was installed`);
    expect(readdirSync(sb.globalRoot)).toEqual([]);
  });

  it("a body that stops half-way is given up too", async () => {
    // Long enough for the answer's headers to arrive on a busy machine; the body then stops.
    const r = await zot("install", "--yes", `${baseUrl}/stalls/pkg.tar.gz`, "--timeout-ms", "2000");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`zot: download of ${baseUrl}/stalls/pkg.tar.gz failed: no data for 2 s; nothing was installed`);
    expect(readdirSync(sb.globalRoot)).toEqual([]);
  });

  it("--timeout-ms must be a whole number of milliseconds", async () => {
    const r = await zot("install", "--yes", `${baseUrl}/downloads/pkg.tar.gz`, "--timeout-ms", "soon");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^zot: --timeout-ms expects a whole number of milliseconds/);
  });
});
