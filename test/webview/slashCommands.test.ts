/**
 * Slash commands in the composer: `/` at the start offers the agent's commands in a listbox the textarea drives
 * (aria-activedescendant), filtered as you type; ↑/↓ move, Enter or Tab insert `/<name> `, Escape closes, a click
 * inserts; the agent's names and descriptions are text, never markup; nothing is offered mid-message, without
 * commands, or while the run takes no messages.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { RunSummary } from '../../extension/protocol/webviewMessages';
import { RUN_KEY, sampleRun, snapshot } from './fixtures';
import { openHarness } from './harness';
import type { Harness } from './harness';

const COMMANDS: NonNullable<RunSummary['slashCommands']> = [
  { name: 'plan', description: 'Write a plan before editing', hint: 'what to plan' },
  { name: 'review', description: 'Review the current diff' },
  { name: 'compact', description: 'Summarise the conversation so far' },
  { name: 'preview', description: 'Preview a change' },
];

describe('slash commands', () => {
  let harness: Harness;
  const input = () => harness.page.locator('#composer-input');
  const list = () => harness.page.locator('#composer-slash-list');
  const names = () => harness.page.locator('#composer-slash-list [role="option"] .slash-name').allInnerTexts();
  const selected = () => harness.page.locator('#composer-slash-list [aria-selected="true"] .slash-name').innerText();
  const withCommands = (commands: RunSummary['slashCommands'] = COMMANDS, overrides: Partial<RunSummary> = {}) => sampleRun({ slashCommands: commands, ...overrides });

  before(async () => {
    harness = await openHarness();
  });
  beforeEach(async () => {
    await harness.deliver(snapshot([], withCommands()));
    await input().fill('');
    await harness.clearPosted();
  });
  after(async () => {
    await harness?.close();
  });

  test('typing / at the start offers every command, as an accessible listbox the textarea points into', async () => {
    assert.equal(await list().isHidden(), true);
    await input().focus();
    await harness.page.keyboard.type('/');
    assert.equal(await list().isVisible(), true);
    assert.deepEqual(await names(), ['/plan', '/review', '/compact', '/preview']);
    assert.equal(await list().getAttribute('role'), 'listbox');
    assert.equal(await list().getAttribute('aria-label'), 'Slash commands');
    assert.equal(await input().getAttribute('aria-controls'), 'composer-slash-list');
    assert.equal(await input().getAttribute('aria-autocomplete'), 'list');
    const active = await input().getAttribute('aria-activedescendant');
    assert.equal(await harness.page.locator(`#${active ?? 'missing'}`).getAttribute('aria-selected'), 'true');
    assert.equal(await selected(), '/plan');
    assert.match(await harness.page.locator('[data-command="plan"]').innerText(), /what to plan[\s\S]*Write a plan before editing/);
    assert.equal(await harness.page.evaluate(() => document.activeElement?.id), 'composer-input', 'focus stays in the textarea');
  });

  test('the list filters as you type: names starting with the text first, then containing it', async () => {
    await input().focus();
    await harness.page.keyboard.type('/pre');
    assert.deepEqual(await names(), ['/preview']);
    await harness.page.keyboard.press('Backspace');
    await harness.page.keyboard.press('Backspace');
    assert.deepEqual(await names(), ['/plan', '/preview', '/compact'], '/p: those starting with p, then compact');
    await input().fill('');
    await harness.page.keyboard.type('/view');
    assert.deepEqual(await names(), ['/review', '/preview'], 'containing');
    await harness.page.keyboard.type('x');
    assert.equal(await list().isHidden(), true, 'no match closes the list');
  });

  test('arrow keys move the selection (wrapping); Enter inserts "/<name> " and sends nothing', async () => {
    await input().focus();
    await harness.page.keyboard.type('/');
    await harness.page.keyboard.press('ArrowDown');
    assert.equal(await selected(), '/review');
    await harness.page.keyboard.press('ArrowUp');
    await harness.page.keyboard.press('ArrowUp');
    assert.equal(await selected(), '/preview', 'up from the first wraps to the last');
    await harness.page.keyboard.press('ArrowDown');
    await harness.page.keyboard.press('ArrowDown');
    assert.equal(await selected(), '/review');
    await harness.page.keyboard.press('Enter');
    assert.equal(await input().inputValue(), '/review ');
    assert.equal(await list().isHidden(), true);
    assert.equal(await input().getAttribute('aria-activedescendant'), null);
    await harness.page.keyboard.type('the diff');
    assert.equal(await input().inputValue(), '/review the diff');
    assert.deepEqual((await harness.posted()).filter((m) => m.type === 'send'), [], 'Enter in the list does not send');
    await input().press('Control+Enter');
    assert.deepEqual(await harness.waitForPost((m) => m.type === 'send'), { type: 'send', runKey: RUN_KEY, text: '/review the diff' });
  });

  test('Tab inserts the selected command and keeps focus; the hint shows until input is typed', async () => {
    await input().focus();
    await harness.page.keyboard.type('/pl');
    await harness.page.keyboard.press('Tab');
    assert.equal(await input().inputValue(), '/plan ');
    assert.equal(await harness.page.evaluate(() => document.activeElement?.id), 'composer-input');
    assert.equal(await harness.page.locator('#composer-slash-hint').innerText(), '/plan what to plan');
    await harness.page.keyboard.type('x');
    assert.equal(await harness.page.locator('#composer-slash-hint').isHidden(), true);
  });

  test('inserting replaces only the typed name: text after it is kept', async () => {
    await input().fill('/re the staged files');
    await input().focus();
    await input().evaluate((el: HTMLTextAreaElement) => {
      el.setSelectionRange(3, 3);
      el.dispatchEvent(new Event('input'));
    });
    assert.deepEqual(await names(), ['/review', '/preview']);
    await harness.page.keyboard.press('Enter');
    assert.equal(await input().inputValue(), '/review the staged files');
    assert.equal(await input().evaluate((el: HTMLTextAreaElement) => el.selectionStart), '/review '.length);
  });

  test('Escape closes the list and keeps the text; typing on reopens it', async () => {
    await input().focus();
    await harness.page.keyboard.type('/p');
    await harness.page.keyboard.press('Escape');
    assert.equal(await list().isHidden(), true);
    assert.equal(await input().inputValue(), '/p');
    await harness.page.keyboard.type('l');
    assert.deepEqual(await names(), ['/plan']);
  });

  test('a click inserts the command', async () => {
    await input().focus();
    await harness.page.keyboard.type('/');
    await harness.page.locator('[data-command="compact"]').click();
    assert.equal(await input().inputValue(), '/compact ');
    assert.equal(await list().isHidden(), true);
    assert.equal(await harness.page.evaluate(() => document.activeElement?.id), 'composer-input');
  });

  test('nothing is offered mid-message, after the name, without commands, or when the run takes no messages', async () => {
    await input().focus();
    await harness.page.keyboard.type('hello /');
    assert.equal(await list().isHidden(), true);
    await input().fill('');
    await harness.page.keyboard.type('/plan ');
    assert.equal(await list().isHidden(), true, 'a space ends the name');
    await input().fill('');
    await harness.deliver({ type: 'run', run: sampleRun() });
    await harness.page.keyboard.type('/');
    assert.equal(await list().isHidden(), true, 'a run without commands');
    await harness.deliver({ type: 'run', run: withCommands() });
    assert.equal(await list().isVisible(), true, 'commands arriving while "/" is typed open the list');
    await harness.deliver({ type: 'run', run: withCommands(COMMANDS, { actions: { send: false, queues: false, stop: true, end: false, changeSet: false } }) });
    assert.equal(await list().isHidden(), true, 'no messages, no commands');
  });

  test("a header update replaces the list while it is open, keeping the selected command if it is still offered", async () => {
    await input().focus();
    await harness.page.keyboard.type('/');
    await harness.page.keyboard.press('ArrowDown');
    assert.equal(await selected(), '/review');
    await harness.deliver({ type: 'run', run: withCommands([{ name: 'init', description: 'Create AGENTS.md' }, ...COMMANDS.slice(1)]) });
    assert.deepEqual(await names(), ['/init', '/review', '/compact', '/preview']);
    assert.equal(await selected(), '/review');
  });

  test("the agent's names and descriptions are rendered as text, never as markup", async () => {
    const evil = '<img src=x onerror="window.__pwned=1">';
    await harness.deliver({ type: 'run', run: withCommands([{ name: `x${evil}`, description: `<b>bold</b>${evil}`, hint: evil }]) });
    await input().focus();
    await harness.page.keyboard.type('/x');
    assert.equal(await harness.page.locator('#composer-slash-list img, #composer-slash-list b').count(), 0);
    assert.equal(await harness.page.locator('#composer-slash-list .slash-name').innerText(), `/x${evil}`);
    assert.match(await harness.page.locator('#composer-slash-list .slash-description').innerText(), /<b>bold<\/b>/);
    await harness.page.keyboard.press('Enter');
    assert.equal(await input().inputValue(), `/x${evil} `);
    assert.equal(await harness.page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(harness.errors, []);
    assert.deepEqual(await harness.cspViolations(), []);
  });
});
