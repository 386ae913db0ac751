/**
 * Starting an AgencyProxy run: the editor names it (`sb-…`, so a retried start meets `conflict` for its own id),
 * shows and stores it before `start_run` is sent (owned, so its events may be acknowledged), snapshots the
 * workspace for its local change set and its first file checkpoint, then attaches to its events. A continuation resumes a lost run's provider
 * session in the new run (continueRun.ts).
 */
import { randomBytes } from 'node:crypto';
import type { RunFields } from '../../model/modelActions';
import type { StartRunOptions } from '../driver';
import { errorText, toDriverError } from '../kit/errors';
import { isAgencyProxyError } from './agencyProxyError';
import type { AgencyProxyAttachments } from './agencyProxyAttachments';
import type { AgencyProxyRunParts } from './agencyProxyRunParts';
import type { AgencyProxyClient } from './client';
import type { Continuation } from './continueRun';
import { INTERACTIVE_METADATA_KEY } from './runActivityBook';

/** Starts a run on `client`; resolves with its id once the daemon accepted it and it is attached. */
export async function startAgencyProxyRun(
  parts: AgencyProxyRunParts,
  attachments: AgencyProxyAttachments,
  client: AgencyProxyClient,
  options: StartRunOptions,
  continuation?: Continuation,
): Promise<string> {
  const runId = `sb-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const title = continuation?.title ?? (options.prompt.trim().split(/\r?\n/, 1)[0]!.slice(0, 80) || 'Untitled run');
  const fields: RunFields = {
    title,
    provider: options.provider ?? 'claude',
    model: options.model ?? '',
    state: 'starting',
    workspaceRoots: options.workspaceRoots,
  };
  void parts.runs.fields(runId, fields);
  attachments.starting.add(runId);
  parts.ownership.own(runId); // stored with the run below, before start_run is sent
  const interactive = options.interactive ?? true;
  parts.activity.setInteractive(runId, interactive);
  await parts.localChanges.begin(runId, options.workspaceRoots[0]);
  await parts.saveRun(runId);
  await parts.recordLocal(runId, { kind: 'userPrompt', text: options.prompt });
  // The files before the run touches them (turn 0), taken before `start_run` goes out.
  await parts.checkpoints.boundary(runId, options.workspaceRoots);
  try {
    await client.startRun(runId, {
      provider: options.provider ?? 'claude',
      model: options.model ?? '',
      prompt: options.prompt,
      permission: options.permission ?? 'edit',
      approvals: options.approvals ?? true,
      interactive,
      workspaceRoots: [...options.workspaceRoots],
      ...(continuation ? { resumeSessionId: continuation.resumeSessionId } : {}),
      metadata: { title, client: 'agent-switchboard', [INTERACTIVE_METADATA_KEY]: interactive },
    });
  } catch (error) {
    // A retried start that meets `conflict` for our own fresh id means the first attempt went through.
    if (!isAgencyProxyError(error, 'conflict')) {
      void parts.runs.fields(runId, { state: 'failed', stateDetail: errorText(error) });
      await parts.saveRun(runId);
      throw toDriverError(error);
    }
  } finally {
    attachments.starting.delete(runId);
  }
  await attachments.attach(client, runId);
  return runId;
}
