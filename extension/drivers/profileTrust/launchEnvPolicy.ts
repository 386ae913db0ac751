/**
 * Environment variables that change *what code runs* in an agent process (or in the tools it starts): the loader,
 * the language runtimes' preload and module paths, the shell's startup files, where git and npm read their config
 * from. A connection profile that a repository's own settings define must not set them — the repository would choose
 * the code that runs with the user's API key — so such a profile is refused with the key named. The user's own
 * profiles may set them (the user wrote them).
 *
 * Matched case-insensitively: Windows treats `Path` and `PATH` as one variable.
 */

/** Exact names. */
const CODE_CHANGING_KEYS: ReadonlySet<string> = new Set([
  // Where executables are found (also: which `node`/`npx` an agent's own child processes run).
  'PATH',
  // Node.js: preloaded modules, module search path, "be Node" for Electron binaries.
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
  'ELECTRON_RUN_AS_NODE',
  // Shells run their startup file (bash -c, sh -c, zsh) before the command: agents run tools through a shell.
  'BASH_ENV',
  'ENV',
  'ZDOTDIR',
  'SHELL',
  'PROMPT_COMMAND',
  // Config homes: an agent and git read settings (hooks, helpers, MCP servers) from here.
  'HOME',
  'XDG_CONFIG_HOME',
  // Python, Perl, Ruby, Java, .NET: start-up code and module paths.
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONHOME',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'DOTNET_STARTUP_HOOKS',
  // Programs other programs start on their own.
  'EDITOR',
  'VISUAL',
  'PAGER',
  'SSH_ASKPASS',
]);

/**
 * Prefixes: the dynamic loader (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, … and macOS's DYLD_*), every GIT_* variable
 * (GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_ASKPASS, GIT_CONFIG_COUNT/KEY_n/VALUE_n, which can set core.hooksPath or
 * core.fsmonitor: too many run code to list one by one, and an agent has no need for a repository to set them), and
 * npm's config (npm_config_registry decides which package `npx` downloads and runs).
 */
const CODE_CHANGING_PREFIXES: readonly string[] = ['LD_', 'DYLD_', 'GIT_', 'NPM_CONFIG_'];

/** Whether setting `key` can change which code runs (see the lists above). */
export function changesWhatRuns(key: string): boolean {
  const upper = key.toUpperCase();
  return CODE_CHANGING_KEYS.has(upper) || CODE_CHANGING_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

/** The keys of `env` that a repository's settings may not set, in the profile's order. */
export function codeChangingKeys(env: Readonly<Record<string, string>> | undefined): string[] {
  return Object.keys(env ?? {}).filter(changesWhatRuns);
}
