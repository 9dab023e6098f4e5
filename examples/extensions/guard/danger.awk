# danger.awk: the guard's danger patterns, in POSIX awk.
#
#   awk -f danger.awk < command     prints the name of the first pattern the command matches
#                                   (exit 0), or nothing (exit 1)
#   awk -v list=1 -f danger.awk     prints every pattern as "name  what it stops", one a line
#
# Each pattern is an extended regular expression, matched anywhere in the command (so it is
# also found after `sudo`, `;`, `&&` or inside `sh -c '…'`). Bracket expressions stand in for
# backslashes ([$] is a literal $), which mean different things in different awks.
# `harmless` is removed from the command before `pattern` is tried: `dd … of=/dev/null` is a
# common benchmark, not an overwritten disk.

BEGIN {
  # Where a command word may start: the start, whitespace, a shell operator or a quote
  # (sh -c 'rm -rf /').
  W = "(^|[[:space:];&|(`'\"])"
  # Option words such as -rf, -r -f, --recursive --force (at least one naming r or R).
  RM_OPTS = "rm([[:space:]]+-[^[:space:]]*)*[[:space:]]+-[^[:space:]]*[rR][^[:space:]]*([[:space:]]+-[^[:space:]]*)*[[:space:]]+"
  # Where a path argument ends.
  END_ARG = "[\"']?([[:space:];&|)]|$)"

  add("rm -rf /", "recursive delete of the filesystem root",
      W RM_OPTS "[\"']?/[*]?" END_ARG)
  add("rm -rf ~", "recursive delete of the home folder",
      W RM_OPTS "[\"']?(~|[$]HOME|[$][{]HOME[}])/?[*]?" END_ARG)
  add("mkfs", "formats a file system",
      W "mkfs([.][[:alnum:]]+)?([[:space:]]|$)")
  add("dd of=/dev/", "dd writing onto a device",
      W "dd[[:space:]](.*[[:space:]])?of=/dev/",
      "of=/dev/(null|zero|stdout|stderr|tty)([[:space:];&|)]|$)")
  add(":(){ :|:& };:", "fork bomb",
      ":[[:space:]]*[(][[:space:]]*[)][[:space:]]*[{][[:space:]]*:[[:space:]]*[|][[:space:]]*:[[:space:]]*&[[:space:]]*[}][[:space:]]*;[[:space:]]*:")
}

function add(name, what, pattern, harmless) {
  COUNT++
  NAME[COUNT] = name; WHAT[COUNT] = what; PATTERN[COUNT] = pattern; HARMLESS[COUNT] = harmless
}

{ COMMAND = (NR == 1) ? $0 : COMMAND "\n" $0 }

END {
  if (list) {
    for (i = 1; i <= COUNT; i++) printf "%-16s %s\n", NAME[i], WHAT[i]
    exit 0
  }
  for (i = 1; i <= COUNT; i++) {
    text = COMMAND
    if (HARMLESS[i] != "") gsub(HARMLESS[i], " ", text)
    if (text ~ PATTERN[i]) { print NAME[i]; exit 0 }
  }
  exit 1
}
