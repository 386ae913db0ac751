import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultScvSocketPath } from '../../../../extension/drivers/scv/socketPath';

describe('defaultScvSocketPath', () => {
  it('uses $SCV_HOME/state/server.sock when SCV_HOME is set', () => {
    assert.equal(defaultScvSocketPath({ SCV_HOME: '/opt/scv' }, '/home/u'), '/opt/scv/state/server.sock');
  });

  it('falls back to ~/.scv/state/server.sock', () => {
    assert.equal(defaultScvSocketPath({}, '/home/u'), '/home/u/.scv/state/server.sock');
    assert.equal(defaultScvSocketPath({ SCV_HOME: '' }, '/home/u'), '/home/u/.scv/state/server.sock');
  });
});
