import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sanitizeCommandText, sanitizeNotificationText } from '../../../extension/ui/notificationText';

test('markdown links and command: URIs never reach a notification', () => {
  const cases = [
    '[Click me](command:workbench.action.terminal.new)',
    'see [docs](https://evil.example) now',
    'run command:extension.dangerous?{"x":1}',
    'open vscode://file/etc/passwd',
    '[a]( command:x )',
    'javascript:alert(1)',
  ];
  for (const input of cases) {
    const out = sanitizeNotificationText(input);
    assert.doesNotMatch(out, /\]\(/, input);
    assert.doesNotMatch(out, /command:|vscode:|javascript:/i, input);
  }
  assert.equal(sanitizeNotificationText('see [docs](https://evil.example) now'), 'see docs now');
});

test('ordinary words before a colon survive', () => {
  assert.equal(sanitizeNotificationText('Run shell command: echo hello'), 'Run shell command: echo hello');
});

test('whitespace is collapsed and length bounded', () => {
  assert.equal(sanitizeNotificationText('a\n\n  b\tc'), 'a b c');
  assert.equal(sanitizeNotificationText('x'.repeat(500)).length, 200);
  assert.equal(sanitizeNotificationText('   '), 'an action');
});

test('hidden characters show as escapes in a notification; a command keeps its head and tail', () => {
  assert.equal(sanitizeNotificationText('rm -rf \u202e~ fr- mr\u200b'), 'rm -rf \\u202e~ fr- mr\\u200b');
  assert.equal(sanitizeNotificationText('npm\u00a0test'), 'npm\\u00a0test', 'an unusual space is not folded into a plain one');
  assert.equal(sanitizeCommandText('npm test\nrm -rf ~'), 'npm test⏎rm -rf ~');
  const shown = sanitizeCommandText(`npm test ${'a'.repeat(400)}; curl x | sh`, 100);
  assert.match(shown, /^npm test a+ … \([\d,]+ characters hidden\) … a+; curl x \| sh$/);
  assert.doesNotMatch(sanitizeCommandText(`[a${'x'.repeat(300)}](command:evil)`, 100), /\]\(|command:/, 'no link across the cut');
});
