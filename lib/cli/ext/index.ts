// `zot ext …` (filled in with the management CLI).
export async function runExt(_argv: string[]): Promise<number> {
  process.stderr.write("zot: ext commands are not wired yet\n");
  return 2;
}
