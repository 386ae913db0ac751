/**
 * Which executable an ACP profile's `command` names. The answer is an absolute path, and that path is what is spawned,
 * shown in the consent prompt and logged: what runs is what the user saw.
 *
 * - An absolute path is taken as it is (normalised).
 * - A relative path with a separator (`./tools/agent`, `tools/agent`) is refused for every profile: it would name a
 *   file relative to whatever the extension host's working directory is, and in a repository's settings it names a
 *   file the repository ships.
 * - A bare name (`claude-agent-acp`, `npx`) is looked up on the extension host's own PATH — never the profile's `env`
 *   (Node's spawn would use the child's PATH, which a profile can set) — skipping empty and relative PATH entries,
 *   which would also resolve against the working directory.
 *
 * Windows' PATHEXT is not applied: the extension targets Unix-like hosts (its daemons are Unix sockets).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, normalize } from 'node:path';

export type CommandResolution = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string };

/** A regular file this process may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) {
      return false;
    }
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Resolves `command` (see the module comment); `searchPath` is the extension host's PATH. */
export function resolveAgentCommand(
  command: string,
  searchPath: string | undefined,
  isExecutable: (path: string) => boolean = isExecutableFile,
  separators: RegExp = process.platform === 'win32' ? /[\\/]/ : /\//,
): CommandResolution {
  const trimmed = command.trim();
  if (trimmed === '') {
    return { ok: false, reason: 'The command is empty.' };
  }
  if (isAbsolute(trimmed)) {
    return { ok: true, path: normalize(trimmed) };
  }
  if (separators.test(trimmed)) {
    return {
      ok: false,
      reason: `The command "${trimmed}" is a relative path. Use an absolute path, or the name of a program on PATH: a relative path would run whatever file is at that place.`,
    };
  }
  for (const dir of (searchPath ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) {
      continue;
    }
    const candidate = join(dir, trimmed);
    if (isExecutable(candidate)) {
      return { ok: true, path: candidate };
    }
  }
  return { ok: false, reason: `The command "${trimmed}" was not found on PATH (the editor's PATH, not the profile's env). Install it, or use its absolute path.` };
}
