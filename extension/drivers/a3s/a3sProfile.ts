/**
 * Checks an A3S connection profile before anything is sent (a bad release identity or URL would otherwise only
 * come back as an unexplained 400/409), and keeps the profile's session id: the configured one, or a generated
 * one stored beside the profile's transcripts so it stays the same across reloads.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConnectionProfile } from '../driver';
import { A3sError } from './a3sErrors';
import { parseA3sBaseUrl } from './loopback';
import { idProblem, releaseIdentityProblem } from './validation';

/** A complete, actionable reason why the profile cannot be used, or undefined when it is fine. */
export function a3sProfileProblem(profile: ConnectionProfile): string | undefined {
  const where = `The A3S connection "${profile.name}"`;
  if (!profile.url) {
    return `${where} has no "url": set it to the harness address, e.g. "http://127.0.0.1:8787" (its --listen address and health port).`;
  }
  try {
    parseA3sBaseUrl(profile.url, profile.allowRemote ?? false);
  } catch (error) {
    if (error instanceof A3sError && /not a loopback address/.test(error.message)) {
      return (
        `${where} points at ${profile.url}, which is not on this machine. The A3S protocol has no authentication, so ` +
        'only loopback addresses are used by default; add "allowRemote": true to the profile if you trust that network.'
      );
    }
    return `${where} has an unusable "url": ${error instanceof Error ? error.message : String(error)}.`;
  }
  if (!profile.releaseIdentity) {
    return (
      `${where} has no "releaseIdentity". Set it to the agent release digest the harness runs ("sha256:" + 64 ` +
      'lowercase hex digits, from the release manifest); the harness refuses every request without the matching one.'
    );
  }
  const release = releaseIdentityProblem(profile.releaseIdentity);
  if (release !== undefined) {
    return `${where} has an invalid "releaseIdentity" ${JSON.stringify(profile.releaseIdentity)}: it ${release}.`;
  }
  if (profile.sessionId !== undefined) {
    const session = idProblem(profile.sessionId);
    if (session !== undefined) {
      return `${where} has an invalid "sessionId": it ${session}.`;
    }
  }
  for (const [key, path] of [['readinessPath', profile.readinessPath], ['livenessPath', profile.livenessPath]] as const) {
    if (path !== undefined && !path.startsWith('/')) {
      return `${where} has an invalid "${key}" ${JSON.stringify(path)}: it must start with "/".`;
    }
  }
  return undefined;
}

/** The session id for new runs: the profile's, else a generated one persisted in `dir/session.json`. */
export async function a3sSessionId(profile: ConnectionProfile, dir: string): Promise<string> {
  if (profile.sessionId !== undefined) {
    return profile.sessionId;
  }
  const file = join(dir, 'session.json');
  try {
    const stored: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (stored !== null && typeof stored === 'object' && typeof (stored as { sessionId?: unknown }).sessionId === 'string') {
      const id = (stored as { sessionId: string }).sessionId;
      if (idProblem(id) === undefined) {
        return id;
      }
    }
  } catch {
    // None stored yet: generate below.
  }
  const sessionId = `vscode-${randomBytes(8).toString('hex')}`;
  await mkdir(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify({ sessionId }));
  await rename(tmp, file);
  return sessionId;
}
