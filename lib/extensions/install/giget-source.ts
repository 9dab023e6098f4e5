// Where a giget source's tarball lives: `gh:owner/repo/sub/dir#ref` and its siblings become a
// URL, request headers and the sub-folder to keep. Pure. This follows giget 3.3.1's own
// providers (same syntax, default ref `main`, GIGET_GITHUB_URL / GIGET_GITLAB_URL / GIGET_AUTH),
// because zot fetches the tarball itself: giget's fetch has no deadline, and on a failed
// download it silently extracts whatever it cached under the same name before.

export interface TarballLocation {
  url: string;
  headers: Record<string, string>;
  /** The archive folder to install, `""` for its top level (giget strips the first level). */
  subdir: string;
}

const REPO_INPUT = /^(?<repo>[-\w.]+\/[-\w.]+)(?<subdir>[^#]+)?(?<ref>#[-\w./@]+)?/;
const EXPANDED_INPUT = /^(?<repo>[-\w.]+(?:\/[-\w.]+)+?)(?:::(?<subdir>[^#]*))?(?<ref>#[-\w./@]+)?$/;

function parseRepo(input: string, expandRepo: boolean): { repo: string; subdir: string; ref: string } {
  const expanded = expandRepo || input.includes("::");
  const m = input.match(expanded ? EXPANDED_INPUT : REPO_INPUT)?.groups ?? {};
  const subdir = expanded ? (m.subdir ? `/${m.subdir}` : "/") : m.subdir || "/";
  if (!m.repo) throw new Error(`"${input}" is not owner/repo[/sub/dir][#ref]`);
  return { repo: m.repo, subdir, ref: m.ref ? m.ref.slice(1) : "main" };
}

/** Resolves `gh:`/`github:`/`gitlab:`/`bitbucket:`/`sourcehut:` sources and http(s) tarball URLs. */
export function tarballLocation(source: string, env: NodeJS.ProcessEnv = process.env): TarballLocation {
  const auth: Record<string, string> = env.GIGET_AUTH ? { authorization: `Bearer ${env.GIGET_AUTH}` } : {};
  if (/^https?:\/\//i.test(source)) return { url: source, headers: auth, subdir: "" };
  const match = /^([a-z]+):(.*)$/.exec(source);
  const [provider, input] = match ? [match[1]!, match[2]!] : ["", source];
  const keep = (subdir: string) => subdir.replace(/^\/+/, "").replace(/\/+$/, "");
  switch (provider) {
    case "gh":
    case "github": {
      const { repo, subdir, ref } = parseRepo(input, false);
      const api = env.GIGET_GITHUB_URL || "https://api.github.com";
      return { url: `${api}/repos/${repo}/tarball/${ref}`, subdir: keep(subdir),
        headers: { ...auth, accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" } };
    }
    case "gitlab": {
      const { repo, subdir, ref } = parseRepo(input, true);
      const host = env.GIGET_GITLAB_URL || "https://gitlab.com";
      return { url: `${host}/${repo}/-/archive/${ref}.tar.gz`, subdir: keep(subdir), headers: auth };
    }
    case "bitbucket": {
      const { repo, subdir, ref } = parseRepo(input, false);
      return { url: `https://bitbucket.org/${repo}/get/${ref}.tar.gz`, subdir: keep(subdir), headers: auth };
    }
    case "sourcehut": {
      const { repo, subdir, ref } = parseRepo(input, false);
      return { url: `https://git.sr.ht/~${repo}/archive/${ref}.tar.gz`, subdir: keep(subdir), headers: auth };
    }
    default:
      throw new Error(`unsupported download source "${source}"`);
  }
}
