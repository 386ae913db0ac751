/** The kit's error taxonomy: every driver's error classes land in one of three outcomes, and one function words them. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { A3sError, A3sHttpError, A3sNoChangeSetError, A3sValidationError } from '../../../../extension/drivers/a3s/a3sErrors';
import { AgencyProxyError } from '../../../../extension/drivers/agencyProxy/agencyProxyError';
import { DriverError as DriverErrorFromDriver } from '../../../../extension/drivers/driver';
import {
  HiveConnectionError,
  HiveDaemonError,
  HiveForbiddenRequestError,
  HiveInvalidRequestError,
  HivePrivilegedError,
  HiveProtocolError,
  HiveTimeoutError,
  HiveUnexpectedResponseError,
} from '../../../../extension/drivers/hive/hiveErrors';
import {
  DriverError,
  NotSentError,
  OutcomeUnknownError,
  RefusedError,
  errorText,
  failureOf,
  isClassified,
  toDriverError,
} from '../../../../extension/drivers/kit/errors';
import { ScvNotSentError, ScvRequestError, ScvUnknownOutcomeError, ScvVersionMismatchError } from '../../../../extension/drivers/scv/scvErrors';

describe('kit error taxonomy', () => {
  test('driver.ts re-exports the kit DriverError (one class, instanceof works across both paths)', () => {
    assert.equal(DriverErrorFromDriver, DriverError);
    const e = new DriverError('x', 'c');
    assert.equal(e.name, 'DriverError');
    assert.equal(e.code, 'c');
    assert.equal(failureOf(e), undefined);
  });

  test('errorText: userText, else message, else the thrown value', () => {
    assert.equal(errorText(new Error('plain')), 'plain');
    assert.equal(errorText('a string'), 'a string');
    assert.equal(errorText(42), '42');
    assert.equal(errorText(undefined), 'undefined');
    assert.equal(errorText(new NotSentError('not connected')), 'not connected');
    assert.equal(errorText(new OutcomeUnknownError('no answer in 5 s.')), 'no answer in 5 s. It may or may not have happened; it was not retried.');
    assert.equal(errorText(new RefusedError('nope', 'conflict')), 'nope');
  });

  test('an Error with a stray `failure` field outside the three kinds is not classified', () => {
    const e = Object.assign(new Error('x'), { failure: 'weird', code: 'ENOENT' });
    assert.equal(isClassified(e), false);
    assert.equal(toDriverError(e).code, undefined, 'codes of unclassified errors are not daemon codes');
    assert.equal(isClassified({ failure: 'refused', message: 'not an Error' }), false);
  });

  test('toDriverError keeps a DriverError and carries the code of classified errors only', () => {
    const d = new DriverError('ready', 'x');
    assert.equal(toDriverError(d), d);
    const fromRefused = toDriverError(new RefusedError('refused', 'queue_conflict'));
    assert.ok(fromRefused instanceof DriverError);
    assert.equal(fromRefused.code, 'queue_conflict');
    assert.equal(toDriverError(Object.assign(new Error('enoent'), { code: 'ENOENT' })).code, undefined);
  });

  test('the kit classes name themselves and keep a cause', () => {
    const cause = new Error('socket');
    const e = new OutcomeUnknownError('lost', 'closed', { cause });
    assert.equal(e.name, 'OutcomeUnknownError');
    assert.equal(e.cause, cause);
    assert.equal(e.code, 'closed');
    assert.equal(new RefusedError('r', 'c').name, 'RefusedError');
  });
});

describe('per-daemon errors map into the taxonomy', () => {
  test('AgencyProxy: daemon errors are refusals, unsendable frames not sent, timeouts and closes unknown', () => {
    assert.equal(failureOf(new AgencyProxyError('conflict', 'm', true)), 'refused');
    assert.equal(failureOf(new AgencyProxyError('frame_too_large', 'm', false)), 'not_sent');
    assert.equal(failureOf(new AgencyProxyError('invalid_request', 'm', false)), 'not_sent');
    assert.equal(failureOf(new AgencyProxyError('handshake_failed', 'm', false)), 'not_sent');
    assert.equal(failureOf(new AgencyProxyError('timeout', 'm', false)), 'outcome_unknown');
    assert.equal(failureOf(new AgencyProxyError('connection_closed', 'm', false)), 'outcome_unknown');
    assert.equal(failureOf(new AgencyProxyError('connection_closed', 'm', false, 'start_run', true)), 'not_sent');
    assert.equal(failureOf(new AgencyProxyError('unexpected_response', 'm', false)), 'outcome_unknown');
    const d = toDriverError(new AgencyProxyError('conflict', 'run exists', true));
    assert.deepEqual([d.message, d.code], ['run exists', 'conflict']);
  });

  test('SCV: each class has its outcome, code and wording', () => {
    const refused = new ScvRequestError('turn_active', 'busy', '7', false);
    assert.equal(failureOf(refused), 'refused');
    assert.equal(errorText(refused), 'SCV refused the request (turn_active): busy');
    assert.equal(toDriverError(refused).code, 'turn_active');
    const mismatch = new ScvVersionMismatchError(2, 3, '');
    assert.equal(failureOf(mismatch), 'refused');
    assert.deepEqual([toDriverError(mismatch).message, toDriverError(mismatch).code], [mismatch.message, 'version_mismatch']);
    const notSent = new ScvNotSentError('not connected');
    assert.equal(failureOf(notSent), 'not_sent');
    assert.deepEqual([errorText(notSent), toDriverError(notSent).code], ['Not sent: not connected', 'not_sent']);
    const unknown = new ScvUnknownOutcomeError('turn.start', '9', 'closed', 'gone');
    assert.equal(failureOf(unknown), 'outcome_unknown');
    assert.equal(errorText(unknown), `${unknown.message}. Nothing was resent.`);
    assert.equal(toDriverError(unknown).code, 'unknown_outcome');
  });

  test('A3S: kinds map to outcomes; validation says nothing was sent; HTTP keeps the stable code', () => {
    const invalid = new A3sValidationError('request_id', 'too long');
    assert.equal(failureOf(invalid), 'not_sent');
    assert.equal(errorText(invalid), 'Nothing was sent: invalid request_id: too long.');
    assert.equal(toDriverError(invalid).code, undefined);
    assert.equal(failureOf(new A3sError('refused_url', 'm')), 'not_sent');
    assert.equal(failureOf(new A3sError('transport', 'm')), 'outcome_unknown');
    assert.equal(failureOf(new A3sError('timeout', 'm')), 'outcome_unknown');
    assert.equal(failureOf(new A3sError('receipt_mismatch', 'm')), 'outcome_unknown');
    assert.equal(failureOf(new A3sNoChangeSetError('gone')), 'refused');
    const http = new A3sHttpError('POST', '/runs', 503, 'harness_closed', 'closed', {});
    assert.equal(failureOf(http), 'refused');
    assert.deepEqual([toDriverError(http).message, toDriverError(http).code], [http.message, 'harness_closed']);
    assert.equal(toDriverError(new A3sError('transport', 'down')).code, undefined);
  });

  test('hive: refusals by the client are not sent, `err` answers refused, transport unknown only once written', () => {
    const s = '/run/hyperhive/mcp.sock';
    assert.equal(failureOf(new HiveForbiddenRequestError(s, 'recv')), 'not_sent');
    assert.equal(failureOf(new HiveInvalidRequestError(s, 'send', 'bad id')), 'not_sent');
    assert.equal(failureOf(new HivePrivilegedError(s, 'kill', true)), 'not_sent');
    assert.equal(failureOf(new HivePrivilegedError(s, 'kill', false, 'privileged variant')), 'refused');
    assert.equal(failureOf(new HiveDaemonError(s, 'send', 'no such agent')), 'refused');
    assert.equal(failureOf(new HiveTimeoutError(s, 'send', 1000, false)), 'not_sent');
    assert.equal(failureOf(new HiveTimeoutError(s, 'send', 1000, true)), 'outcome_unknown');
    assert.equal(failureOf(new HiveConnectionError(s, 'send', 'ECONNREFUSED', false)), 'not_sent');
    assert.equal(failureOf(new HiveConnectionError(s, 'send', 'reset', true)), 'outcome_unknown');
    assert.equal(failureOf(new HiveProtocolError(s, 'send', 'not JSON')), 'outcome_unknown');
    assert.equal(failureOf(new HiveUnexpectedResponseError(s, 'send', 'ok', {}, 'got x')), 'outcome_unknown');
    const d = toDriverError(new HiveDaemonError(s, 'send', 'no such agent'));
    assert.deepEqual([d.message, d.code], ["hive 'send' failed: no such agent", 'daemon']);
  });
});
