// Two environments the credential rule is tested with: what the red team saw leak, and a normal shell's.
/** What the red team still saw reach full-access extensions (issue 38, item 11). */
export const LEAKED: Record<string, string> = {
  DB_PASS: "hunter2", SMTP_PASS: "mailpass", ADMIN_PW: "adminpw", LDAP_BIND_PW: "ldap-pw", GCP_CREDS: "/home/u/gcp.json",
  DOCKER_AUTH_CONFIG: '{"auths":{}}', CI_JOB_JWT: "eyJhbGciOi.x.y", SSH_AUTH_SOCK: "/tmp/ssh-abc/agent.1",
  AZURE_STORAGE_CONNECTION_STRING: "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=c2VjcmV0;",
  PG_CONNINFO: "host=db user=app password=hunter2", REPO_REMOTE: "https://0123456789abcdef0123@git.example/repo.git",
  SLACK_WEBHOOK_URL: "https://hooks.slack.example/services/T0/B0/xyz", HTTP_AUTHORIZATION: "Bearer abc",
  SESSION_COOKIE: "sid=abc", GPG_PRIVKEY: "-----BEGIN PGP PRIVATE KEY BLOCK-----",
  SOME_VALUE_A: "sk-ant-api03-abcdefghijklmnopqrstuvwxyz", SOME_VALUE_B: "sk-abcdefghijklmnopqrstuvwxyz012345",
  SOME_VALUE_C: "ghp_abcdefghijklmnopqrstuvwxyz0123456789", SOME_VALUE_D: "AKIAIOSFODNN7EXAMPLE",
};

/** A normal interactive shell's environment, with the working folder in PWD and OLDPWD. */
export const SHELL: Record<string, string> = {
  PWD: "/home/u/project", OLDPWD: "/home/u", HOME: "/home/u", PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "en_US.UTF-8",
  TERM: "xterm-256color", SHELL: "/bin/bash", USER: "u", LOGNAME: "u", EDITOR: "vim", XDG_RUNTIME_DIR: "/run/user/1000",
  XDG_SESSION_TYPE: "tty", XDG_CONFIG_HOME: "/home/u/.config", XDG_DATA_DIRS: "/usr/local/share:/usr/share", SHLVL: "1",
  LS_COLORS: "rs=0:di=01;34:ln=01;36:mh=00:pi=40;33:so=01;35:do=01;35:bd=40;33;01:*.tar=01;31", COLORTERM: "truecolor",
  DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus", SSH_CONNECTION: "10.0.0.2 51000 10.0.0.1 22", SSH_TTY: "/dev/pts/0",
  GIT_ASKPASS: "/usr/lib/git-core/git-gui--askpass", TOKENIZERS_PARALLELISM: "false", KEYTIMEOUT: "1", TMUX: "/tmp/tmux-1000/default,1,0",
  GIT_REMOTE: "ssh://git@github.com/o/r.git", PUBLIC_URL: "https://example.com/app?page=2", DISPLAY: ":0", _: "/usr/bin/zot",
};
