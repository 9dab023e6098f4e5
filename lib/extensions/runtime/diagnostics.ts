// Diagnostics that identify a failing extension the way the spec asks: name, folder, configured
// executable, declared language (if any), the original error, and the log path when the log was
// opened. Multi-line on purpose; renderers keep the line breaks.

export interface DiagnosticSubject {
  name: string;
  dir: string;
  exec?: string;
  source?: string;
  /** Default "exec". */
  execLabel?: string;
  language?: string;
  logPath?: string;
}

export function failureMessage(subject: DiagnosticSubject, reason: string, duringStartup: boolean): string {
  const head = duringStartup
    ? `extension "${subject.name}" failed to start: ${reason}`
    : `extension "${subject.name}" stopped: ${reason}; its commands and tools are disabled`;
  const lines = [head, `  folder: ${subject.dir}`];
  if (subject.source) lines.push(`  declared in: ${subject.source}`);
  if (subject.exec !== undefined) lines.push(`  ${subject.execLabel ?? "exec"}: ${subject.exec}`);
  if (subject.language) lines.push(`  language: ${subject.language}`);
  if (subject.logPath) lines.push(`  log: ${subject.logPath}`);
  return lines.join("\n");
}
