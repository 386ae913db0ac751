/**
 * An agent's "always" answer says how long it lasts where the agent says it (the option names of claude-agent-acp
 * and codex-acp, copied from their dist), and "as long as the agent keeps it" where it does not; the label is the one
 * every surface uses (decisionLabel). Of two "always" options the one for the session is offered.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PermissionOption, RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { AGENT_KEEPS_IT, optionLasts } from '../../../../extension/drivers/acp/acpAlwaysLasts';
import { AcpPermissions } from '../../../../extension/drivers/acp/acpPermissions';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import { decisionLabel } from '../../../../extension/protocol/transcriptTypes';
import { until } from '../driverKit';
import { rig, run } from './acpDriverKit';

const always = (name: string, optionId = 'always'): PermissionOption => ({ optionId, name, kind: 'allow_always' });

test('the lifetime in the agents\' own words', () => {
  // claude-agent-acp 0.101.0 (permissions/options/*.js)
  assert.equal(optionLasts(always('Yes, allow all edits during this session')), 'this session');
  assert.equal(optionLasts(always('Yes, and allow Claude to edit its own settings for this session')), 'this session');
  assert.equal(optionLasts(always('Yes, and always allow access to src/ from this project')), 'kept by the agent after this session');
  assert.equal(optionLasts(always("Yes, and don't ask again for git commands")), AGENT_KEEPS_IT, 'the name does not say how long');
  // codex-acp 2.6.0 (src/permissions/options.ts)
  assert.equal(optionLasts(always("Yes, and don't ask again for this command in this session")), 'this session');
  assert.equal(optionLasts(always('Yes, and allow this host for this conversation')), 'this session');
  assert.equal(optionLasts(always('Yes, grant these permissions for this turn')), 'this turn');
  assert.equal(optionLasts(always('Yes, and allow this host in the future')), 'kept by the agent after this session');
  assert.equal(optionLasts(always("Yes, and don't ask again for these files")), AGENT_KEEPS_IT, 'session-only in fact, but unsaid');
});

test('of several "always" options the session one is offered, and the approval carries the lifetimes', async () => {
  const permissions = new AcpPermissions();
  const request: RequestPermissionRequest = {
    sessionId: 's',
    toolCall: { toolCallId: 't', title: 'mcp tool', kind: 'other' },
    options: [
      { optionId: 'once', name: 'Allow', kind: 'allow_once' },
      always('Always allow', 'forever'),
      always('Allow for this session', 'session'),
      { optionId: 'no', name: 'Cancel', kind: 'reject_once' },
    ],
  };
  const opened = permissions.open(request, () => Promise.resolve(null));
  const event = await opened.event;
  assert.equal(event.kind === 'approvalRequested' && event.lasts?.allow_similar, 'this session');
  permissions.decide(opened.approvalId, 'allow_similar');
  assert.deepEqual(await opened.response, { outcome: { outcome: 'selected', optionId: 'session' } });
  assert.equal(decisionLabel('allow_similar', ['allow_once', 'allow_similar'], { allow_similar: 'this session' }), 'Allow similar (this session)');
  assert.equal(decisionLabel('allow_similar', ['allow_once', 'allow_similar']), 'Allow similar', 'other daemons unchanged');
});

test('the reference agent does not say how long: its "always" buttons say "as long as the agent keeps it"', { timeout: 30_000 }, async () => {
  const r = await rig();
  const runId = await r.driver.startRun({ prompt: 'edit the readme', workspaceRoots: [r.ws.dir] });
  const approvalId = await until('an approval', () => run(r, runId)?.pendingApprovals[0]);
  const approval = r.setup.store.state.approvals.get(`${runKeyOf(r.setup.connectionId, runId)}::${approvalId}`)!;
  assert.deepEqual(approval.lasts, { allow_similar: AGENT_KEEPS_IT, deny_always: AGENT_KEEPS_IT });
  assert.deepEqual(
    approval.options.map((o) => decisionLabel(o, approval.options, approval.lasts)),
    ['Allow once', 'Allow similar (as long as the agent keeps it)', 'Deny', 'Deny similar (as long as the agent keeps it)'],
  );
  const card = r.items(runId).find((i) => i.kind === 'approval');
  assert.deepEqual(card?.kind === 'approval' && card.lasts, approval.lasts, 'the card (webview) has it too');
  await r.driver.decideApproval(runId, approvalId, 'deny', 'transcript');
});
