/**
 * Protected paths: files an agent must never change on the strength of an edit permission alone, because VS Code or
 * git runs programs named in them as soon as it reads them — a workspace's `.vscode/settings.json` (terminal and
 * tool paths, extension settings), `tasks.json` (tasks run on folder open), `launch.json`, a `*.code-workspace` file
 * (the same settings, tasks and launch configurations), anything under `.git` (hooks; `config` with
 * `core.fsmonitor`, `core.hooksPath`, aliases and filters, which the editor's own `git status` triggers). Writing one
 * turns "may edit files" into "may run code" (the CVE-2025-53773 pattern), so such a write always asks a person.
 *
 * Not protected, deliberately: `.gitattributes` only *names* filter and diff drivers, whose commands come from git
 * config (`.git/config`, protected, or the user's own); `.gitmodules` gives URLs and paths, and git takes no
 * command from it (`submodule.<name>.update=!cmd` is ignored there since git 2.24.1, CVE-2019-19604) and refuses
 * the dangerous transports by default (`protocol.allow`).
 *
 * The coding agents' own project settings are protected for the same reason: `.claude/` (Claude Code's
 * `settings.json` runs its hooks as shell commands and widens its own permissions), `.mcp.json` (the MCP servers
 * Claude Code starts — commands), `.gemini/` (Gemini CLI's settings and MCP servers) and `.codex/` (Codex's project
 * config). An agent that may edit files must not be able to rewrite what the next agent, or itself, may run.
 *
 * A name is compared the way the file systems it may land on compare it, like git's own `is_ntfs_dotgit` and
 * `is_hfs_dotgit`: case folded, trailing dots and spaces dropped and anything from a `:` on ignored (Windows:
 * `.git.`, `.GIT `, `.git::$INDEX_ALLOCATION` all open `.git`), the 8.3 short names (`GIT~1`, `VSCODE~1`), and the
 * code points HFS+ ignores removed. Pure (no Node, no DOM): the host, the model, the change-set code and the
 * webview's approval card share it.
 */

export type ProtectedKind = 'git' | 'vscode' | 'workspaceFile' | 'agentConfig';

export interface ProtectedPath {
  readonly kind: ProtectedKind;
  /** The path as it was given. */
  readonly path: string;
  /** Why it is protected, in words that finish "<path> is protected: …". */
  readonly reason: string;
}

export const PROTECTED_REASONS: Readonly<Record<ProtectedKind, string>> = {
  git: 'it is inside the .git folder, and git runs the programs its hooks and config name when it reads them',
  vscode: "it is in the workspace's .vscode folder, whose settings, tasks and launch configurations can run programs when VS Code reads them",
  workspaceFile: 'it is a VS Code workspace file, whose settings, tasks and launch configurations can run programs when VS Code reads it',
  agentConfig: "it is a coding agent's own project settings (hooks, MCP servers, permissions), which can run programs when an agent reads them",
};

/** Folders of the agents' own project settings, compared folded (`.Claude`, `.claude.` open the same folder). */
const AGENT_CONFIG_FOLDERS = new Set(['.claude', '.gemini', '.codex']);
/** Files of the agents' own project settings at any depth (Claude Code reads `.mcp.json` at the project root). */
const AGENT_CONFIG_FILES = new Set(['.mcp.json']);

/** The code points HFS+ ignores in names (git's `is_hfs_dotgit` list): `.g\u200Cit` opens `.git` on such a disk. */
const HFS_IGNORED = /[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g;

/** A path segment as Windows, macOS and case-insensitive file systems would resolve it, folded for comparison. */
export function comparableName(segment: string): string {
  const stream = segment.indexOf(':');
  const name = stream >= 0 ? segment.slice(0, stream) : segment;
  return name.replace(HFS_IGNORED, '').replace(/[. ]+$/, '').toLowerCase();
}

/** The folder `segment` opens, if it is `.git` or `.vscode` under any spelling a file system accepts for it. */
function protectedFolderOf(segment: string): 'git' | 'vscode' | undefined {
  const name = comparableName(segment);
  if (name === '.git' || /^git~\d+$/.test(name)) {
    return 'git';
  }
  if (name === '.vscode' || /^vscode~\d+$/.test(name)) {
    return 'vscode';
  }
  return undefined;
}

/** Whether a single path segment names the `.git` folder (or file: a worktree's pointer to its git folder). */
export function isGitSegment(segment: string): boolean {
  return protectedFolderOf(segment) === 'git';
}

/** Both separators count: agents and patches on Windows write `\`, and a Unix name with `\` is rare enough. */
function segmentsOf(path: string): string[] {
  const out: string[] = [];
  for (const part of path.split(/[\\/]+/)) {
    if (part === '' || part === '.') {
      continue;
    }
    if (part === '..') {
      out.pop();
    } else {
      out.push(part);
    }
  }
  return out;
}

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/**
 * The segments of `path` below the root it lies in (the longest of `roots` that is a prefix of it), else all of
 * them: a workspace that itself lives under a folder named `.vscode` does not make every file in it protected.
 */
function segmentsBelowRoot(path: string, roots: readonly string[]): string[] {
  const segments = segmentsOf(path);
  let best = 0;
  for (const root of roots) {
    const rootSegments = segmentsOf(root);
    if (rootSegments.length > best && rootSegments.length <= segments.length && sameSegments(rootSegments, segments.slice(0, rootSegments.length))) {
      best = rootSegments.length;
    }
  }
  return segments.slice(best);
}

/**
 * Whether `path` (absolute, or relative to a workspace root) is protected, and why. `roots`: the workspace roots an
 * absolute path is taken relative to; a path under none of them is judged on all its segments. `..` is resolved
 * first, so `.vscode/../x` is not protected and `a/../.vscode/x` is.
 */
export function protectedPathOf(path: string, roots: readonly string[] = []): ProtectedPath | undefined {
  const segments = segmentsBelowRoot(path, roots);
  for (const segment of segments) {
    const folder = protectedFolderOf(segment);
    if (folder !== undefined) {
      return { kind: folder, path, reason: PROTECTED_REASONS[folder] };
    }
    if (AGENT_CONFIG_FOLDERS.has(comparableName(segment))) {
      return { kind: 'agentConfig', path, reason: PROTECTED_REASONS.agentConfig };
    }
  }
  const last = segments.at(-1);
  if (last !== undefined && AGENT_CONFIG_FILES.has(comparableName(last))) {
    return { kind: 'agentConfig', path, reason: PROTECTED_REASONS.agentConfig };
  }
  if (last !== undefined && comparableName(last).endsWith('.code-workspace')) {
    return { kind: 'workspaceFile', path, reason: PROTECTED_REASONS.workspaceFile };
  }
  return undefined;
}

/** The protected paths among `paths`, in order. */
export function protectedPathsOf(paths: readonly string[], roots: readonly string[] = []): ProtectedPath[] {
  return paths.flatMap((p) => {
    const found = protectedPathOf(p, roots);
    return found ? [found] : [];
  });
}

/** One line for a card or a notification: "Protected: <path> — <reason>." (the first one, and how many more). */
export function protectedNotice(found: readonly ProtectedPath[]): string | undefined {
  const first = found[0];
  if (first === undefined) {
    return undefined;
  }
  const more = found.length > 1 ? ` (and ${found.length - 1} more protected path${found.length > 2 ? 's' : ''})` : '';
  return `Protected: ${first.path}${more}: ${first.reason}. No approval rule answers this; decide it yourself.`;
}
