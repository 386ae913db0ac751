import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  idProblem,
  promptProblem,
  reasonProblem,
  releaseIdentityProblem,
  requestBodyProblem,
  validateA3sCommand,
} from '../../../../extension/drivers/a3s/validation';
import { A3sValidationError } from '../../../../extension/drivers/a3s/a3sErrors';
import { buildRecoverCommand, buildRunIdentity, buildStartCommand } from '../../../../extension/protocol/a3s';
import { isLoopbackHost, parseA3sBaseUrl } from '../../../../extension/drivers/a3s/loopback';
import { A3sClient } from '../../../../extension/drivers/a3s/client';

const RELEASE = `sha256:${'a'.repeat(64)}`;

describe('A3S field validation', () => {
  it('ids: not blank, ≤ 256 bytes, no NUL/CR/LF', () => {
    assert.equal(idProblem('run-1'), undefined);
    assert.equal(idProblem('é'.repeat(128)), undefined); // exactly 256 bytes
    assert.match(idProblem('é'.repeat(128) + 'x') ?? '', /256/);
    assert.match(idProblem('   ') ?? '', /blank/);
    for (const bad of ['a\0b', 'a\rb', 'a\nb']) {
      assert.match(idProblem(bad) ?? '', /NUL, CR or LF/);
    }
    assert.equal(idProblem('tab\tok'), undefined);
    assert.match(idProblem('lone \ud800') ?? '', /well-formed/);
  });

  it('prompt: not blank, ≤ 65,536 bytes, no NUL (newlines fine)', () => {
    assert.equal(promptProblem('line 1\nline 2\r\n'), undefined);
    assert.equal(promptProblem('x'.repeat(65_536)), undefined);
    assert.match(promptProblem('x'.repeat(65_535) + 'é') ?? '', /65536/);
    assert.match(promptProblem('\n\t ') ?? '', /blank/);
    assert.match(promptProblem('a\0') ?? '', /NUL/);
  });

  it('reason: a single line ≤ 1,024 bytes', () => {
    assert.equal(reasonProblem('user stop'), undefined);
    assert.match(reasonProblem('two\nlines') ?? '', /single line/);
    assert.match(reasonProblem('x'.repeat(1_025)) ?? '', /1024/);
  });

  it('release identity: sha256 + 64 lowercase hex', () => {
    assert.equal(releaseIdentityProblem(RELEASE), undefined);
    assert.ok(releaseIdentityProblem(`sha256:${'A'.repeat(64)}`));
    assert.ok(releaseIdentityProblem(`sha256:${'a'.repeat(63)}`));
    assert.ok(releaseIdentityProblem('a'.repeat(64)));
  });

  it('request body ≤ 131,072 bytes', () => {
    assert.equal(requestBodyProblem('x'.repeat(131_072)), undefined);
    assert.ok(requestBodyProblem('x'.repeat(131_073)));
  });

  it('validateA3sCommand names the field; recover must name a different run', () => {
    const id = buildRunIdentity({ agentReleaseIdentity: RELEASE, sessionId: 's', runId: 'r2' });
    validateA3sCommand(buildStartCommand('q', id, 'ok'));
    assert.throws(() => validateA3sCommand(buildStartCommand('q', id, ' ')), (e: unknown) => e instanceof A3sValidationError && e.field === 'request.prompt');
    assert.throws(() => validateA3sCommand(buildRecoverCommand('q', id, 'r2')), (e: unknown) => e instanceof A3sValidationError && e.field === 'request.checkpoint_run_id');
    const badRelease = buildRunIdentity({ agentReleaseIdentity: 'sha256:nope', sessionId: 's', runId: 'r' });
    assert.throws(() => validateA3sCommand(buildStartCommand('q', badRelease, 'x')), /agent_release_identity/);
  });
});

describe('A3S loopback rule', () => {
  it('accepts 127.0.0.0/8, ::1, localhost', () => {
    for (const host of ['127.0.0.1', '127.255.3.4', 'localhost', '[::1]', '[::ffff:7f00:1]']) {
      assert.ok(isLoopbackHost(host), host);
    }
    for (const url of ['http://127.0.0.1:9/', 'http://localhost:1', 'http://[::1]:80', 'http://127.1:5']) {
      parseA3sBaseUrl(url);
    }
  });

  it('refuses non-loopback URLs unless allowed, with a clear error', () => {
    for (const url of ['http://10.0.0.1:8080', 'http://example.com', 'http://[::2]:1', 'http://128.0.0.1', 'http://localhost.evil.com']) {
      assert.throws(() => new A3sClient({ baseUrl: url }), (e: unknown) => e instanceof Error && /not a loopback address.*allowNonLoopback/.test(e.message), url);
    }
    const client = new A3sClient({ baseUrl: 'http://10.0.0.1:8080', allowNonLoopback: true });
    assert.equal(client.baseUrl.hostname, '10.0.0.1');
    client.dispose();
    assert.throws(() => parseA3sBaseUrl('https://127.0.0.1'), /http:/);
    assert.throws(() => parseA3sBaseUrl('not a url'), /not a valid URL/);
  });
});
