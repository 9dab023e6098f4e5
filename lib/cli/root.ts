// The root command: modes and flags. (Filled in with the agent.)
export async function runRoot(_argv: string[]): Promise<number> {
  process.stderr.write("zot: the agent is not wired yet\n");
  return 1;
}
