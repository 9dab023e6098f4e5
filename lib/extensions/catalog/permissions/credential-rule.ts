// Which environment variables hold credentials, judged by name and by value. A name with a
// secret's word in it (KEY, TOKEN, PASS, PW, JWT, COOKIE, AUTH, DSN, CREDS, …) is one; so is any
// value shaped like a key (sk-ant-…, ghp_…, AKIA…), a URL carrying user info, or a keyword DSN
// (`password=`). The shell's own variables are not: `PWD` and `OLDPWD` name the working folder
// (an absolute path), whatever the `_PWD` abbreviation of a password suggests.

/** Words that make a name a secret's wherever they stand (`GITHUB_TOKEN`, `dbPassword`, `GPG_PRIVKEY`). */
const SECRET_WORD = /TOKEN(S)?(_|$)|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|APIKEY|API_KEY|PRIV(ATE)?_?KEY|AUTHORIZATION|COOKIE|WEBHOOK|CONNECTION_?STRING|JWT/i;
/** Words that make a name a secret's as one whole `_`-separated part (`DB_PASS`, `ADMIN_PW`, `SSH_AUTH_SOCK`), not inside another word. */
const SECRET_PART = /(^|_)(KEYS?|PASS|PW|PWD|PAT|DSN|AUTH|CREDS?|SIG|SIGNATURE|OTP|SALT)(_|$)/i;
/** The shell's working-folder variables: an absolute path there is no secret. */
const SHELL_FOLDERS = new Set(["PWD", "OLDPWD"]);

/** Shapes of provider and platform keys, found anywhere in a value. */
const KEY_SHAPE = new RegExp([
  String.raw`sk-ant-[A-Za-z0-9_-]{8,}`, // Anthropic
  String.raw`sk-(proj-|svcacct-)?[A-Za-z0-9_-]{16,}`, // OpenAI and alike
  String.raw`gh[pousr]_[A-Za-z0-9]{16,}`, String.raw`github_pat_[A-Za-z0-9_]{16,}`, String.raw`glpat-[A-Za-z0-9_-]{16,}`,
  String.raw`(AKIA|ASIA)[0-9A-Z]{16}`, String.raw`AIza[0-9A-Za-z_-]{30,}`, String.raw`xox[abposr]-[A-Za-z0-9-]{8,}`,
  String.raw`(npm|hf|gsk|xai|pypi)[_-][A-Za-z0-9_-]{20,}`, String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.`,
  String.raw`-----BEGIN [A-Z ]*PRIVATE KEY-----`, String.raw`^(Bearer|Basic|Token) [A-Za-z0-9+/=._~-]{8,}$`,
].map((shape) => `(^|[^A-Za-z0-9])(${shape})`).join("|"));
/** A URL with user info: `scheme://user:password@host`, or `https://TOKEN@host` (only ssh-like schemes name a bare user). */
const URL_USERINFO = /^([a-z][a-z0-9+.-]*):\/\/([^/@\s]+)@/i;
const USER_SCHEMES = /^(ssh|sftp|git\+ssh|ssh\+git)$/i;
/** A keyword DSN or a connection string: `host=db password=…`, `Server=…;Pwd=…;`, `AccountKey=…`, `?token=…`. */
const KEYWORD_SECRET = /(^|[\s;&?,])(password|passwd|pwd|pass|secret|token|access_token|api_?key|accountkey|sharedaccesskey|sharedaccesssignature|sig)\s*=\s*[^\s;&]/i;

/** Whether `value` itself has a key's, a credential URL's or a keyword DSN's shape. */
export function valueLooksSecret(value: string): boolean {
  if (KEY_SHAPE.test(value) || KEYWORD_SECRET.test(value)) return true;
  const url = URL_USERINFO.exec(value);
  return url !== null && (url[2]!.includes(":") || !USER_SCHEMES.test(url[1]!));
}

const isAbsolutePath = (value: string) => value.startsWith("/") || /^[A-Za-z]:[\\/]/.test(value);

/** Whether environment variable `name=value` holds a credential. */
export function looksLikeCredential(name: string, value: string | undefined): boolean {
  if (value !== undefined && valueLooksSecret(value)) return true;
  if (SHELL_FOLDERS.has(name)) return value !== undefined && value !== "" && !isAbsolutePath(value);
  return SECRET_WORD.test(name) || SECRET_PART.test(name);
}

/**
 * The parts of a credential value that leak it on their own: the password of a URL's user info
 * and the values of a DSN's secret keywords (`password=hunter2` → `hunter2`).
 */
export function secretParts(value: string): string[] {
  const parts: string[] = [];
  const url = URL_USERINFO.exec(value);
  if (url) {
    const info = url[2]!;
    const colon = info.indexOf(":");
    parts.push(colon === -1 ? info : info.slice(colon + 1));
    for (const part of [...parts]) {
      try {
        parts.push(decodeURIComponent(part));
      } catch {
        // not percent-encoded text: the raw part is enough
      }
    }
  }
  const keywords = new RegExp(KEYWORD_SECRET.source.replace(String.raw`[^\s;&]`, String.raw`('[^']*'|"[^"]*"|[^\s;&]+)`), "gi");
  for (const match of value.matchAll(keywords)) parts.push(match[3]!.replace(/^(['"])(.*)\1$/, "$2"));
  return [...new Set(parts.filter((part) => part !== "" && part !== value))];
}
