/** Run titles: the default from the first prompt (one line, no markdown or code, cut at a word) and the agent's. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultRunTitle, shownAgentTitle } from '../../../../extension/drivers/acp/acpRunTitles';

test('the default title: whitespace collapsed, markdown stripped, code fences left out, cut at a word with an ellipsis', () => {
  assert.equal(defaultRunTitle('  fix the\n\n   failing   test\t'), 'fix the failing test');
  assert.equal(defaultRunTitle('# Title\n- **bold** item with `code` and _emphasis_\n> quoted [link](http://x.invalid)'), 'Title bold item with code and emphasis quoted link');
  assert.equal(defaultRunTitle('why does this fail?\n```ts\nconst x: number = "a";\n```\nthanks'), 'why does this fail? … thanks');
  assert.equal(defaultRunTitle('```\nonly code\n```'), 'New session', 'nothing but code: the placeholder');
  assert.equal(defaultRunTitle('snake_case_name stays'), 'snake_case_name stays', 'underscores inside a word are not emphasis');
  const long = defaultRunTitle('please refactor the connection manager so that reconnects back off exponentially and the status bar says when it tries again');
  assert.ok(long.length <= 80, long);
  assert.equal(long, 'please refactor the connection manager so that reconnects back off…');
  assert.equal(defaultRunTitle(`look at ${'x'.repeat(200)}`).length, 80, 'a long word is cut where it must be');
  assert.equal(defaultRunTitle(''), 'New session');
});

test("the agent's title: one line, no control characters or codicons, bounded; empty or null is none", () => {
  assert.equal(shownAgentTitle('Fix\nthe\u0007 tests $(alert)'), 'Fix the tests $ (alert)');
  assert.equal(shownAgentTitle('  '), undefined);
  assert.equal(shownAgentTitle(null), undefined);
  assert.ok((shownAgentTitle('word '.repeat(40)) ?? '').endsWith('…'));
});
