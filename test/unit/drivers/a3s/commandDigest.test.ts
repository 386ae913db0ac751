import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  buildCancelCommand,
  buildRecoverCommand,
  buildRunIdentity,
  buildStartCommand,
  canonicalA3sCommand,
} from '../../../../extension/protocol/a3s';
import type { A3sCommand } from '../../../../extension/protocol/a3s';
import { a3sCommandDigest, canonicalCommandJson } from '../../../../extension/drivers/a3s/commandDigest';
import { commandDigest as harnessDigest, serdeString } from '../../../fixtures/a3s/harnessWire';

// Test vectors copied from WIRE.md §3.4 (the repository must not read ../shared).
const RELEASE = 'sha256:1111111111111111111111111111111111111111111111111111111111111111';
const ID_PREFIX =
  '{"schema":"a3s.code.agent-run-identity.v1","protocol":"a3s.code.agent.v1","agent_release_identity":"sha256:1111111111111111111111111111111111111111111111111111111111111111","session_id":"session-1","run_id":';
const VECTORS = [
  {
    name: 'start',
    json: `{"action":"start","request":{"schema":"a3s.code.agent-run-start.v1","request_id":"req-1","identity":${ID_PREFIX}"run-1"},"prompt":"Fix the failing test"}}`,
    digest: 'sha256:076cea4865ad29aa3491ab26820d087e54acae736c958d9c7a359272e6e986f6',
    command: () => buildStartCommand('req-1', ident('run-1'), 'Fix the failing test'),
  },
  {
    name: 'cancel',
    json: `{"action":"cancel","request":{"schema":"a3s.code.agent-run-cancel.v1","request_id":"req-2","identity":${ID_PREFIX}"run-1"},"reason":"user stop"}}`,
    digest: 'sha256:9d96dc4011ead45f1da5f92185a742dd38dee8278a5b0e4833dc2e91cd5ed4cc',
    command: () => buildCancelCommand('req-2', ident('run-1'), 'user stop'),
  },
  {
    name: 'recover',
    json: `{"action":"recover","request":{"schema":"a3s.code.agent-run-recover.v1","request_id":"req-3","identity":${ID_PREFIX}"run-2"},"checkpoint_run_id":"run-1"}}`,
    digest: 'sha256:22129cb3acbddb87544688464b747633fa90af85bfccea75dd01646f9db27748',
    command: () => buildRecoverCommand('req-3', ident('run-2'), 'run-1'),
  },
] as const;

function ident(runId: string) {
  return buildRunIdentity({ agentReleaseIdentity: RELEASE, sessionId: 'session-1', runId });
}

function sha(text: string): string {
  return `sha256:${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex')}`;
}

describe('A3S command digest', () => {
  for (const v of VECTORS) {
    it(`matches the WIRE.md ${v.name} vector`, () => {
      const cmd = v.command();
      assert.equal(canonicalCommandJson(cmd), v.json);
      assert.equal(sha(v.json), v.digest, 'vector self-check');
      assert.equal(a3sCommandDigest(cmd), v.digest);
      assert.equal(harnessDigest(cmd), v.digest, 'the reference harness agrees');
    });
  }

  it('ignores the key order a command object was built in', () => {
    const scrambled = {
      request: {
        prompt: 'Fix the failing test',
        identity: { run_id: 'run-1', session_id: 'session-1', agent_release_identity: RELEASE, protocol: 'a3s.code.agent.v1', schema: 'a3s.code.agent-run-identity.v1' },
        request_id: 'req-1',
        schema: 'a3s.code.agent-run-start.v1',
      },
      action: 'start',
    } as A3sCommand;
    assert.notEqual(JSON.stringify(scrambled), VECTORS[0].json);
    assert.equal(a3sCommandDigest(scrambled), VECTORS[0].digest);
  });

  it('drops extra keys when canonicalising', () => {
    const cmd = VECTORS[0].command() as A3sCommand & { extra?: number };
    const polluted = { ...cmd, extra: 1, request: { ...cmd.request, identity: { ...cmd.request.identity, x: 2 } } } as unknown as A3sCommand;
    assert.equal(JSON.stringify(canonicalA3sCommand(polluted)), VECTORS[0].json);
  });

  it('escapes like serde_json: controls escaped, U+007F, U+2028, "/" and non-ASCII raw', () => {
    const prompt = 'a\u0000b\u0001\u0008\u0009\u000a\u000b\u000c\u000d\u001e\u001fc\u007fd\u2028e\u2029"q"\\/é中🎉';
    // Built by hand, not by JSON.stringify.
    const escaped =
      'a\\u0000b\\u0001\\b\\t\\n\\u000b\\f\\r\\u001e\\u001fc' + '\u007f' + 'd' + '\u2028' + 'e' + '\u2029' + '\\"q\\"\\\\/é中🎉';
    const json = `{"action":"start","request":{"schema":"a3s.code.agent-run-start.v1","request_id":"req-1","identity":${ID_PREFIX}"run-1"},"prompt":"${escaped}"}}`;
    const cmd = buildStartCommand('req-1', ident('run-1'), prompt);
    assert.equal(canonicalCommandJson(cmd), json);
    assert.equal(a3sCommandDigest(cmd), sha(json));
    assert.equal(harnessDigest(cmd), sha(json));
  });

  it('agrees with the independent serde-style escaper for every control and boundary character', () => {
    const chars: string[] = [];
    for (let c = 0; c <= 0x7f; c++) {
      chars.push(String.fromCharCode(c));
    }
    chars.push('\u0080', '\u00a0', '\u2028', '\u2029', '\ufeff', '\uffff', '😀', '👩‍👩‍👧', '\u{10ffff}');
    for (const ch of chars) {
      const reason = `x${ch}y`;
      const cmd = buildCancelCommand('req-2', ident('run-1'), reason);
      const json = `{"action":"cancel","request":{"schema":"a3s.code.agent-run-cancel.v1","request_id":"req-2","identity":${ID_PREFIX}"run-1"},"reason":${serdeString(reason)}}}`;
      assert.equal(canonicalCommandJson(cmd), json, `char U+${ch.codePointAt(0)?.toString(16)}`);
      assert.equal(a3sCommandDigest(cmd), sha(json));
    }
  });

  it('covers unicode and emoji in ids and the checkpoint id', () => {
    const id = buildRunIdentity({ agentReleaseIdentity: RELEASE, sessionId: 'séance-🎉', runId: 'run-ü\u2028' });
    const cmd = buildRecoverCommand('req-ß', id, 'ck-😀');
    const json =
      '{"action":"recover","request":{"schema":"a3s.code.agent-run-recover.v1","request_id":"req-ß","identity":{"schema":"a3s.code.agent-run-identity.v1","protocol":"a3s.code.agent.v1","agent_release_identity":"' +
      RELEASE +
      '","session_id":"séance-🎉","run_id":"run-ü\u2028"},"checkpoint_run_id":"ck-😀"}}';
    assert.equal(a3sCommandDigest(cmd), sha(json));
    assert.equal(harnessDigest(cmd), sha(json));
  });
});
