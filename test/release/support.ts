// Helpers for the release tests. They run in two settings: under `npm test` against a small
// release made here (a stub binary, the real archive and checksum code), and under
// `npm run release:check` against the real dist/release/ (ZOT_RELEASE_DIR, set by its config).
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { ZOT_VERSION } from "../../lib/version.ts";
import { writeTarGz } from "../../release/archive.ts";
import { renderSums } from "../../release/checksums.ts";
import { readArchive } from "./archive-reader.ts";
import { archiveName, archiveStem, hostTarget, npmTarballName, RELEASE_TARGETS } from "../../release/targets.ts";

/** The real release folder when running as part of release:check. */
export const REAL_RELEASE_DIR = process.env.ZOT_RELEASE_DIR;

/** A release folder with every Unix target's archive, each holding a stub `zot` that prints `version`. */
export function makeStubRelease(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), "zot-stub-release-"));
  const files: Array<{ name: string; data: Uint8Array }> = [];
  for (const t of RELEASE_TARGETS.filter((t) => t.archive === "tar.gz")) {
    const stub = Buffer.from(`#!/bin/sh\necho ${version}\n`);
    const docs = ["README.md", "LICENSE"].map((name) => ({ name, data: Buffer.from(`${name}\n`), mode: 0o644 }));
    const name = archiveName(version, t);
    writeTarGz(join(dir, name), archiveStem(version, t), [{ name: "zot", data: stub, mode: 0o755 }, ...docs], 1_700_000_000);
    files.push({ name, data: readFileSync(join(dir, name)) });
  }
  writeFileSync(join(dir, "SHA256SUMS"), renderSums(files));
  return dir;
}

export interface ReleaseServer {
  url: string;
  /** Paths requested so far. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Serves `dir` the way GitHub Releases lays a release out: `/latest/download/<file>` and
 * `/download/v<version>/<file>` (only `version`); anything else is a 404.
 */
export async function serveRelease(dir: string, version: string): Promise<ReleaseServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    requests.push(path);
    const m = /^\/(?:latest\/download|download\/v([^/]+))\/([^/]+)$/.exec(path);
    const file = m && (m[1] === undefined || m[1] === version) ? join(dir, basename(m[2]!)) : undefined;
    if (!file || !existsSync(file)) {
      res.writeHead(404).end("not found\n");
      return;
    }
    res.writeHead(200, { "content-type": "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** Unpacks a release archive (or the npm tarball) into `dest`, keeping file modes. */
export function extractArchive(file: string, dest: string): void {
  for (const entry of readArchive(file)) {
    const path = join(dest, entry.name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, entry.data, { mode: entry.mode || 0o644 });
  }
}

/** The release's runtimes for the end-to-end scenarios: the npm tarball's Node bundle and the host binary. */
export function releaseRuntimes(releaseDir: string, scratch: string) {
  const version = ZOT_VERSION;
  const host = hostTarget();
  if (!host) throw new Error(`zot releases no binary for ${process.platform}-${process.arch}`);
  const npmDir = join(scratch, "npm-package");
  const binDir = join(scratch, "release-binary");
  return [
    {
      name: `Node bundle from ${npmTarballName(version)}`,
      argv: [process.execPath, join(npmDir, "package", "dist", "zot.mjs")],
      build: () => extractArchive(join(releaseDir, npmTarballName(version)), npmDir),
    },
    {
      name: `release binary ${archiveName(version, host)}`,
      argv: [join(binDir, archiveStem(version, host), host.executable)],
      runsTsAlone: true,
      build: () => extractArchive(join(releaseDir, archiveName(version, host)), binDir),
    },
  ];
}
