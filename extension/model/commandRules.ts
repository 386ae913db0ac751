/**
 * Which rule a shell command proposes, and which commands a command rule matches. A proposed rule must never allow
 * more than a person reading its words would expect, so a prefix ("npm test") is proposed only for a plain command
 * whose first words say what runs; everything else proposes the exact command. Matching is strict the same way: a
 * prefix matches only a command of printable ASCII with nothing in it that could run, chain, redirect or
 * substitute anything else. Pure; commands are untrusted agent output.
 */

/** Up to three plain words (`npm run build`): the command's first words, separated by one space. */
export interface CommandPrefixProposal {
  readonly kind: 'commandPrefix';
  readonly prefix: string;
}
export interface CommandExactProposal {
  readonly kind: 'commandExact';
  readonly command: string;
}

/**
 * Anything but printable ASCII, and every character with which a shell (POSIX, zsh, PowerShell, cmd) could run a
 * second command, run one inside an argument, or send output somewhere: chains `; & |`, substitutions `$( ` and
 * backticks, process substitution and redirection `< >`, subshells and zsh glob qualifiers `( )`, variables `$`,
 * escapes and line continuations `\`, history `!`. Quotes are allowed after the prefix: inside them these are
 * refused just the same, so they can hide nothing.
 */
const NOT_SIMPLE = /[^\x20-\x7e]|[;&|`$<>()\\!]/;
/** A command word: a name or a path to one, no glob, quote, variable, assignment (`CI=1`) or option (`-x`). */
const COMMAND_WORD = /^[A-Za-z0-9_./+][A-Za-z0-9_./+-]*$/;
/** A subcommand (`test`, `build`, `status`), never an option and never a file (`bun x.ts`). */
const SUBCOMMAND = /^[a-z][a-z0-9_-]*$/;
/** A package script (`npm run test:unit`). */
const SCRIPT_NAME = /^[A-Za-z0-9][A-Za-z0-9:._-]*$/;

/**
 * Commands that run another command named in their arguments, or code given in them: a prefix of their name would
 * allow whatever follows (`timeout 5 rm -rf ~`, `python -c …`, `find . -exec …`), so only the exact command is
 * proposed. When in doubt a command belongs here: the cost is a rule that covers one command.
 */
const RUNS_WHAT_FOLLOWS = new Set([
  // Launchers and privilege wrappers.
  ...['sudo', 'doas', 'su', 'pkexec', 'runuser', 'env', 'nohup', 'setsid', 'time', 'command', 'builtin', 'exec', 'eval', 'source', '.'],
  ...['nice', 'renice', 'ionice', 'chrt', 'taskset', 'numactl', 'cgexec', 'systemd-run', 'unshare', 'nsenter', 'chroot', 'fakeroot'],
  ...['firejail', 'bwrap', 'timeout', 'stdbuf', 'unbuffer', 'script', 'watch', 'strace', 'ltrace', 'gdb', 'lldb', 'valgrind', 'perf'],
  ...['xargs', 'parallel', 'flock', 'caffeinate', 'arch', 'busybox', 'start', 'call', 'cmd', 'invoke-expression', 'iex'],
  // Shell keywords: never a command of their own.
  ...['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'select', 'function', 'coproc', '[[', '{', '}'],
  // Shells and interpreters (they run code from their arguments).
  ...['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'pwsh', 'powershell', 'nu', 'xonsh'],
  ...['node', 'nodejs', 'python', 'python2', 'python3', 'pypy', 'pypy3', 'perl', 'ruby', 'php', 'lua', 'luajit', 'tclsh', 'wish'],
  ...['osascript', 'rscript', 'r', 'julia', 'awk', 'gawk', 'mawk', 'nawk', 'sed', 'gsed', 'jshell', 'groovy', 'scala', 'kotlin', 'swift'],
  // Package runners: they fetch and run a package named in their arguments.
  ...['npx', 'pnpx', 'bunx', 'uvx', 'pipx', 'dlx'],
  // Tools whose options run commands (`find -exec`, `ssh host cmd`, `rsync -e`, `tar --to-command`, `git -c`).
  ...['find', 'fd', 'ssh', 'scp', 'sftp', 'rsync', 'tar', 'zip', 'vim', 'vi', 'nvim', 'emacs', 'less', 'more', 'man', 'expect', 'tmux', 'screen'],
]);

/** Tools whose second word says what they do (`npm test` and `npm publish` are different requests). */
const TWO_WORD_COMMANDS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'git', 'cargo', 'go', 'make', 'docker', 'podman', 'kubectl', 'dotnet', 'mvn', 'gradle', 'pip', 'pip3', 'uv', 'poetry', 'pipenv', 'conda', 'deno']);
/** Their subcommands that run a command or package named after them (`npm exec rm …`, `docker run …`, `go run x.go`). */
const SUBCOMMAND_RUNS_WHAT_FOLLOWS: Readonly<Record<string, readonly string[]>> = {
  npm: ['exec', 'x', 'explore'],
  pnpm: ['exec', 'dlx', 'x'],
  yarn: ['exec', 'dlx', 'node'],
  bun: ['x', 'exec'],
  uv: ['run', 'tool', 'tools'],
  poetry: ['run', 'shell'],
  pipenv: ['run', 'shell'],
  conda: ['run'],
  go: ['run', 'generate', 'tool'],
  deno: ['run', 'eval', 'x', 'repl'],
  docker: ['run', 'exec', 'compose', 'build', 'buildx', 'container'],
  podman: ['run', 'exec', 'compose', 'build', 'container'],
  kubectl: ['exec', 'run', 'debug', 'apply', 'create', 'replace', 'patch'],
  git: ['config', 'submodule', 'filter-branch', 'rebase', 'bisect'],
  cargo: ['install'],
  dotnet: ['exec', 'tool'],
  make: [],
  mvn: [],
  gradle: [],
  pip: ['install'],
  pip3: ['install'],
};
/** `npm run build` names the script: the prefix keeps it (`npm run` would allow every script). */
const RUNS_SCRIPT = new Set(['npm:run', 'npm:run-script', 'pnpm:run', 'yarn:run', 'bun:run', 'deno:task']);

/** Whether `command` is one command of printable ASCII that can run nothing else (see NOT_SIMPLE). */
export function isSimpleCommand(command: string): boolean {
  return !NOT_SIMPLE.test(command);
}

function wordsOf(command: string): string[] {
  return command.split(' ').filter((w) => w !== '');
}

function baseName(word: string): string {
  return word.replace(/^.*\//, '').toLowerCase();
}

/** The prefix words a simple command proposes, or undefined when only the exact command is clear. */
function prefixWords(words: readonly string[]): string[] | undefined {
  const [first, second, third] = words;
  if (first === undefined || !COMMAND_WORD.test(first)) {
    return undefined;
  }
  const name = baseName(first);
  if (RUNS_WHAT_FOLLOWS.has(name) || /^python[0-9.]*$/.test(name)) {
    return undefined;
  }
  if (!TWO_WORD_COMMANDS.has(name)) {
    return [first];
  }
  // `git -C x status`, `npm --prefix x test`: an option before the subcommand changes what runs.
  if (second === undefined || !SUBCOMMAND.test(second) || (SUBCOMMAND_RUNS_WHAT_FOLLOWS[name] ?? []).includes(second)) {
    return undefined;
  }
  if (RUNS_SCRIPT.has(`${name}:${second}`)) {
    return third !== undefined && SCRIPT_NAME.test(third) ? [first, second, third] : undefined;
  }
  return [first, second];
}

/** The pattern a rule for `command` proposes: its first words when that is clear, else the exact command. */
export function proposeCommandPattern(command: string): CommandPrefixProposal | CommandExactProposal {
  const words = isSimpleCommand(command) ? prefixWords(wordsOf(command)) : undefined;
  return words ? { kind: 'commandPrefix', prefix: words.join(' ') } : { kind: 'commandExact', command };
}

/**
 * Whether a prefix rule matches `command`: the command is simple and its first words are the prefix's words (runs
 * of spaces between words are one separator, as for the shell). A prefix the editor would not propose today (a
 * rule saved before, e.g. "CI=1" or "timeout") matches nothing.
 */
export function commandPrefixMatches(prefix: string, command: string): boolean {
  if (!isCurrentPrefix(prefix) || !isSimpleCommand(command)) {
    return false;
  }
  const commandWords = wordsOf(command);
  return wordsOf(prefix).every((w, i) => commandWords[i] === w);
}

/** Whether the editor would propose `prefix` today (a stored rule with another prefix matches nothing). */
export function isCurrentPrefix(prefix: string): boolean {
  return isSimpleCommand(prefix) && prefixWords(wordsOf(prefix))?.join(' ') === prefix;
}

/** Whether an exact rule matches `command`: the same characters, nothing trimmed or folded. */
export function commandExactMatches(exact: string, command: string): boolean {
  return exact === command;
}
