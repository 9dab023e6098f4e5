// Colours for the REPL, off when NO_COLOR is set (unless FORCE_COLOR) or stdout is not a TTY.

export interface Style {
  dim(text: string): string;
  bold(text: string): string;
  italic(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  level(level: string, text: string): string;
}

export function colorEnabled(env: Record<string, string | undefined>, isTTY: boolean): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return isTTY;
}

export function makeStyle(enabled: boolean): Style {
  const wrap = (open: number, close: number) => (text: string) => (enabled ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  const style: Style = {
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    italic: wrap(3, 23),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    level(level, text) {
      switch (level) {
        case "error":
          return style.red(text);
        case "warn":
          return style.yellow(text);
        case "success":
          return style.green(text);
        default:
          return style.cyan(text);
      }
    },
  };
  return style;
}
