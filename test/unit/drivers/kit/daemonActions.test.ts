/**
 * Daemon features are declared as data (drivers/kit/daemonActions.ts) and package.json is what VS Code reads: these
 * tests check that the two agree (commands, titles, icons, every context-menu entry and its `when` clause), that
 * every declared action is carried out by its driver, and what `actionApplies` decides.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemonRegistry, registeredActions } from '../../../../extension/drivers/daemonRegistry';
import type { ActionSubject, DaemonAction } from '../../../../extension/drivers/kit/daemonActions';
import { actionApplies, actionContextFlag, actionMenuWhen } from '../../../../extension/drivers/kit/daemonActions';
import { performA3sAction } from '../../../../extension/drivers/a3s/a3sActions';
import { performAgencyProxyAction } from '../../../../extension/drivers/agencyProxy/agencyProxyActions';
import { performHiveAction } from '../../../../extension/drivers/hive/hiveActionFlows';
import { performScvAction } from '../../../../extension/drivers/scv/scvActions';
import { performAcpAction } from '../../../../extension/drivers/acp/acpActions';
import type { ActionAnswers, ActionResult, ActionTarget } from '../../../../extension/drivers/kit/daemonActions';
import type { ProtocolName } from '../../../../extension/protocol/protocolNames';
import type { ConnectionInfo, RunInfo } from '../../../../extension/model/modelTypes';
import { PROTOCOL_NAMES } from '../../../../extension/protocol/protocolNames';

interface ManifestCommand {
  readonly command: string;
  readonly title: string;
  readonly category?: string;
  readonly icon?: string;
}
interface ManifestMenu {
  readonly command: string;
  readonly when?: string;
  readonly group?: string;
}
const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { commands: ManifestCommand[]; menus: Record<string, ManifestMenu[]> };
};
const actions = registeredActions().map((e) => e.action);
const declared = new Set(actions.map((a) => a.command));

test('every daemon in PROTOCOL_NAMES has a registry entry, and action ids are unique', () => {
  assert.deepEqual(Object.keys(daemonRegistry).sort(), [...PROTOCOL_NAMES].sort());
  assert.equal(declared.size, actions.length);
});

test('package.json declares each action as a command with the declared title and icon', () => {
  for (const action of actions) {
    const command = manifest.contributes.commands.find((c) => c.command === action.command);
    assert.ok(command, `${action.command} is missing from contributes.commands`);
    assert.equal(command.title, action.title, action.command);
    assert.equal(command.category, 'Agent Switchboard', action.command);
    assert.equal(command.icon, action.icon ? `$(${action.icon})` : undefined, action.command);
  }
  // …and has no daemon command the declarations do not know (a stale entry would do nothing).
  const daemonish = manifest.contributes.commands.filter((c) => /^agentSwitchboard\.(agencyProxy|scv|a3s|hive|acp)\.|A3sRun$/.test(c.command));
  assert.deepEqual(daemonish.map((c) => c.command).filter((c) => !declared.has(c)), []);
});

test("package.json's context menus for daemon actions are exactly the declared ones", () => {
  const key = (m: ManifestMenu): string => `${m.command} | ${m.group ?? ''} | ${m.when ?? ''}`;
  const inManifest = manifest.contributes.menus['view/item/context']!.filter((m) => declared.has(m.command)).map(key).sort();
  const fromDeclarations = actions.flatMap((a) => (a.menus ?? []).map((m) => key({ command: a.command, group: m.group, when: actionMenuWhen(a, m) }))).sort();
  assert.deepEqual(inManifest, fromDeclarations);
  // The protocol flags the tree used before the declarations must not come back.
  const legacy = Object.values(manifest.contributes.menus).flat().filter((m) => /\+(agencyProxy|scv|hive|hiveAgent|hiveManager|queuePaused)\b/.test(m.when ?? ''));
  assert.deepEqual(legacy, []);
});

test('a menu `when` clause matches exactly the rows whose contextValue carries the action', () => {
  const continueRun = actions.find((a) => a.command === 'agentSwitchboard.agencyProxy.continueRun')!;
  const inline = continueRun.menus!.find((m) => m.group.startsWith('inline'))!;
  const pattern = (when: string): RegExp => new RegExp(/viewItem =~ \/(.*)\/$/.exec(when)![1]!);
  const flag = actionContextFlag(continueRun);
  assert.match(`run.lost+send${flag}+changes`, pattern(actionMenuWhen(continueRun, inline)));
  assert.doesNotMatch(`run.completed${flag}`, pattern(actionMenuWhen(continueRun, inline)), 'inline only on lost runs');
  assert.doesNotMatch('run.lost+send+action:agentSwitchboard.agencyProxy.continueRunLater', pattern(actionMenuWhen(continueRun, inline)));
  assert.doesNotMatch(`connection.connected${flag}`, pattern(actionMenuWhen(continueRun, continueRun.menus![0]!)));
});

const connection = (over: Partial<ConnectionInfo> = {}): ConnectionInfo => ({
  id: 'scv:one',
  name: 'one',
  protocol: 'scv',
  state: { kind: 'connected', since: 0 },
  capabilities: ['run.queue'],
  ...over,
});
const run = (over: Partial<RunInfo> = {}): RunInfo => ({ state: 'running', queuePaused: false, ...over }) as RunInfo;
const applies = (action: DaemonAction, subject: Partial<ActionSubject>): boolean => actionApplies(action, { connection: connection(), facts: [], ...subject });

test('actionApplies: scope, connection state, capabilities, run states, queue, facts', () => {
  const runAction: DaemonAction = { command: 'x.run', title: 'R', scope: 'run', pickTarget: '', failure: '' };
  const connectionAction: DaemonAction = { command: 'x.conn', title: 'C', scope: 'connection', pickTarget: '', failure: '' };
  assert.equal(applies(runAction, { run: run() }), true);
  assert.equal(applies(runAction, {}), false, 'a run action needs a run');
  assert.equal(applies(connectionAction, { run: run() }), false, 'a connection action is not a run action');
  assert.equal(applies(connectionAction, { connection: connection({ state: { kind: 'idle' } }) }), false, 'connected by default');
  assert.equal(applies({ ...connectionAction, when: { connected: false } }, { connection: connection({ state: { kind: 'idle' } }) }), true);
  assert.equal(applies({ ...connectionAction, when: { capabilities: ['hive.manager'] } }, {}), false);
  assert.equal(applies({ ...runAction, when: { active: false } }, { run: run() }), false);
  assert.equal(applies({ ...runAction, when: { active: false } }, { run: run({ state: 'lost' }) }), true);
  assert.equal(applies({ ...runAction, when: { active: true } }, { run: run({ state: 'stopped' }) }), false, 'stopped is not active');
  assert.equal(applies({ ...runAction, when: { runStates: ['idle'] } }, { run: run() }), false);
  assert.equal(applies({ ...runAction, when: { notRunStates: ['running'] } }, { run: run() }), false);
  assert.equal(applies({ ...runAction, when: { queuePaused: true } }, { run: run() }), false);
  assert.equal(applies({ ...runAction, when: { queuePaused: true } }, { run: run({ queuePaused: true }) }), true);
  assert.equal(applies({ ...runAction, when: { facts: ['agent'] } }, { run: run(), facts: [] }), false);
  assert.equal(applies({ ...runAction, when: { facts: ['agent'], notFacts: ['running'] } }, { run: run(), facts: ['agent', 'running'] }), false);
  assert.equal(applies({ ...runAction, when: { facts: ['agent'], notFacts: ['running'] } }, { run: run(), facts: ['agent'] }), true);
});

/** A driver stand-in that records which method an action called (and answers every call). */
function recordingDriver(calls: string[]): never {
  const answer = (name: string): unknown => {
    if (name === 'agents') {
      return [];
    }
    if (name === 'isManagerRun' || name === 'ownsRun') {
      return false;
    }
    if (name === 'listSchedules') {
      return Promise.resolve([{ ok: true, value: { id: 1, body: 'b' } }]);
    }
    if (name === 'readAccountUsage') {
      return Promise.resolve([{ provider: 'claude', supported: true, usage: null, error: null }]);
    }
    if (name === 'signOut') {
      return Promise.resolve({ methodId: undefined, variables: [], restarted: false });
    }
    if (name === 'leftoverOffer') {
      return { id: 'o', fromRunId: 'a', toRunId: 'b', prompts: [] };
    }
    return Promise.resolve(name === 'startNewSession' || name === 'continueInNewRun' || name === 'recoverRun' ? 'new-run' : name === 'queueLeftoverPrompts' ? 0 : '');
  };
  return new Proxy({}, {
    get: (_t, name: string) => {
      if (name === 'leftoverOffer') {
        return answer(name);
      }
      if (name === 'connectionName') {
        return 'demo';
      }
      if (name === 'agentSessions') {
        // ACP's session features are a part of its driver: their calls are the driver's too.
        return recordingDriver(calls);
      }
      if (name === 'authMethods') {
        return [{ id: 'm', name: 'Key', kind: 'env_var', vars: [] }];
      }
      return (..._args: unknown[]) => {
        calls.push(name);
        return answer(name);
      };
    },
  }) as never;
}

test('every declared action is carried out by its driver (none falls through to "has no action")', async () => {
  // Typed by the protocol list: a new daemon's performer is required here by the compiler.
  const performers: Record<ProtocolName, (driver: never, command: string, target: ActionTarget, answers: ActionAnswers) => Promise<ActionResult>> = {
    'agency-proxy': performAgencyProxyAction,
    scv: performScvAction,
    a3s: performA3sAction,
    hive: performHiveAction,
    acp: performAcpAction,
  };
  for (const { protocol, action } of registeredActions()) {
    const calls: string[] = [];
    const perform = performers[protocol];
    assert.ok(perform, `no performer for ${protocol}`);
    const answers = { mode: 'drain', scheduleId: 1, scheduleAction: 'fire', name: 'n', body: 'b', prompt: 'p', method: 'm', option: 'model', value: 'v' };
    const result = await perform(recordingDriver(calls), action.command, { connectionId: 'c', runId: 'r' }, answers);
    assert.ok(result.kind, action.command);
    assert.ok(calls.length > 0 || result.kind === 'declined', `${action.command} called nothing on its driver`);
  }
});
