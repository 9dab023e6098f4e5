// The zot version, shown in `--version`, `hello_ack.zot_version` and the json `session` line.
export const ZOT_VERSION = "0.1.0";
