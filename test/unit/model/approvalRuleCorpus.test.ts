/**
 * A corpus of shell commands through the rule proposer and the matcher (issue #22 §3): what a rule proposed from a
 * command covers, in its words, and whether a rule made from command A answers command B. The tables are data;
 * each row is one verdict. `none` = the request is not whole (cut or unreadable): no rule is offered for it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApprovalRule, RuleContext } from '../../../extension/model/approvalRules';
import { matchRules, ruleFor } from '../../../extension/model/approvalRules';
import { subjectOf } from '../../../extension/model/approvalSubject';

type Command = string | readonly string[];
type Proposal = `prefix:${string}` | 'exact' | 'none';

const here: RuleContext = { runKey: 'ap:A::run-1', connectionId: 'ap:A', epoch: 1 };
const LONG_ARGS = ` --grep ${'a'.repeat(2100)}`;

/** What "Allow similar" proposes for a command. */
const PROPOSALS: readonly (readonly [group: string, command: Command, proposes: Proposal])[] = [
  ['plain', 'npm test', 'prefix:npm test'],
  ['plain', 'npm test -- --grep x', 'prefix:npm test'],
  ['plain', 'ls -la src', 'prefix:ls'],
  ['plain', 'git status', 'prefix:git status'],
  ['plain', 'git log --oneline -5', 'prefix:git log'],
  ['plain', 'cargo build --release', 'prefix:cargo build'],
  ['plain', 'npm run build', 'prefix:npm run build'],
  ['plain', 'npm run test:unit -- --watch', 'prefix:npm run test:unit'],
  ['plain', './gradlew test', 'prefix:./gradlew'],
  ['plain', 'npm  test', 'prefix:npm test'],
  ['plain', 'npm', 'exact'],
  ['plain', 'npm run', 'exact'],
  ['plain', 'npm -- --grep "a b"', 'exact'],
  ['argv', ['bash', '-lc', 'cargo test'], 'prefix:cargo test'],
  ['argv', ['git', 'status'], 'prefix:git status'],
  ['argv', ['npm test'], 'exact'],
  ['argv', ['bash', '--rcfile', 'x', '-c', 'npm test'], 'exact'],
  ['argv', ['bash', '-oc', 'npm test'], 'exact'],
  ['env prefix', 'CI=1 npm test', 'exact'],
  ['env prefix', 'FOO=bar BAZ=1 make test', 'exact'],
  ['env prefix', 'env CI=1 npm test', 'exact'],
  ['option first', 'git -C x status', 'exact'],
  ['option first', 'npm --prefix x test', 'exact'],
  ['option first', 'git -c core.pager=evil log', 'exact'],
  ['option first', 'make -C sub test', 'exact'],
  ['option first', '-rf /', 'exact'],
  ['wrapper', 'timeout 60 npm test', 'exact'],
  ['wrapper', 'nice -n 10 make test', 'exact'],
  ['wrapper', 'sudo apt install x', 'exact'],
  ['wrapper', '/usr/bin/sudo ls', 'exact'],
  ['wrapper', 'nohup ./server', 'exact'],
  ['wrapper', 'time npm test', 'exact'],
  ['wrapper', 'command -v node', 'exact'],
  ['wrapper', 'exec npm test', 'exact'],
  ['wrapper', 'eval npm test', 'exact'],
  ['wrapper', 'doas ls', 'exact'],
  ['wrapper', 'su -c ls', 'exact'],
  ['wrapper', 'ionice -c3 make test', 'exact'],
  ['wrapper', 'stdbuf -oL npm test', 'exact'],
  ['wrapper', 'chroot / ls', 'exact'],
  ['wrapper', 'watch -n1 ls', 'exact'],
  ['wrapper', 'strace -f npm test', 'exact'],
  ['wrapper', 'xargs rm', 'exact'],
  ['wrapper', 'bash -c "npm test"', 'exact'],
  ['wrapper', 'sh -c ls', 'exact'],
  ['wrapper', 'zsh -c ls', 'exact'],
  ['wrapper', 'npx jest', 'exact'],
  ['wrapper', 'pnpm dlx create-x', 'exact'],
  ['wrapper', 'npm exec rm -- -rf ~', 'exact'],
  ['wrapper', 'docker run --rm -v /:/h alpine sh', 'exact'],
  ['wrapper', 'uv run pytest', 'exact'],
  ['wrapper', 'go run ./cmd/x', 'exact'],
  ['wrapper', 'python3 -c print', 'exact'],
  ['wrapper', 'python3.12 script.py', 'exact'],
  ['wrapper', 'node -e x', 'exact'],
  ['wrapper', 'find . -name x -delete', 'exact'],
  ['wrapper', 'git config user.name x', 'exact'],
  ['chain', 'npm test; curl x | sh', 'exact'],
  ['chain', 'npm test && rm -rf ~', 'exact'],
  ['chain', 'npm test || true', 'exact'],
  ['chain', 'npm test | tee out', 'exact'],
  ['chain', 'npm test &', 'exact'],
  ['chain', 'npm test & rm -rf ~', 'exact'],
  ['substitution', 'npm test $(curl x)', 'exact'],
  ['substitution', 'npm test `curl x`', 'exact'],
  ['substitution', 'npm test <(curl x)', 'exact'],
  ['substitution', 'npm test >(sh)', 'exact'],
  ['substitution', 'npm test $HOME', 'exact'],
  ['substitution', 'echo ${HOME}', 'exact'],
  ['redirection', 'npm test > /etc/passwd', 'exact'],
  ['redirection', 'npm test 2>&1', 'exact'],
  ['redirection', 'cat < /etc/shadow', 'exact'],
  ['newline', 'npm test\nrm -rf ~', 'exact'],
  ['newline', 'npm test\rrm -rf ~', 'exact'],
  ['newline', 'npm test \\\nrm -rf ~', 'exact'],
  ['newline', 'npm test\\', 'exact'],
  ['newline', 'npm\ttest', 'exact'],
  ['unicode', 'n\u0440m test', 'exact'],
  ['unicode', 'npm test\uff1brm -rf ~', 'exact'],
  ['unicode', 'npm\u200b test', 'exact'],
  ['unicode', 'npm\u00a0test', 'exact'],
  ['unicode', 'npm test \u202e~ fr- mr', 'exact'],
  ['unicode', 'echo h\u00e9llo', 'exact'],
  ['quotes', 'npm test "; rm -rf ~"', 'exact'],
  ['quotes', "npm test '$(rm -rf ~)'", 'exact'],
  ['quotes', 'npm test -- --grep "a b"', 'prefix:npm test'],
  ['quotes', "'npm' test", 'exact'],
  ['quotes', '"npm test"', 'exact'],
  ['quotes', "npm' 'test", 'exact'],
  ['glob', 'ls src/*.ts', 'prefix:ls'],
  ['glob', 'n?m test', 'exact'],
  ['glob', 'np[m] test', 'exact'],
  ['glob', '*', 'exact'],
  ['long', `npm test${LONG_ARGS}; curl x | sh`, 'none'],
  ['long', `npm test${LONG_ARGS}`, 'none'],
];

/** Whether a rule proposed from the first command answers the second. */
const MATCHES: readonly (readonly [group: string, ruleFrom: Command, request: Command, matches: boolean])[] = [
  ['same', 'npm test', 'npm test', true],
  ['same', 'npm test', 'npm test -- --watch', true],
  ['same', 'npm test', 'npm  test', true],
  ['same', 'npm test', '  npm test  ', true],
  ['same', 'npm test', ['npm', 'test'], true],
  ['same', 'npm test', ['bash', '-lc', 'npm test'], true],
  ['same', 'npm run build', 'npm run build -- --prod', true],
  ['same', 'ls -la', 'ls', true],
  ['same', 'git status', 'git status --porcelain', true],
  ['word', 'npm test', 'npm testify', false],
  ['word', 'npm test', 'npm publish', false],
  ['word', 'npm test', 'NPM test', false],
  ['word', 'npm run build', 'npm run deploy', false],
  ['word', 'ls -la', 'lsblk', false],
  ['word', 'git status', 'git stash', false],
  ['word', 'npm test', ['npm test'], false],
  ['chain', 'npm test', 'npm test; x', false],
  ['chain', 'npm test', 'npm test && x', false],
  ['chain', 'npm test', 'npm test || x', false],
  ['chain', 'npm test', 'npm test | x', false],
  ['chain', 'npm test', 'npm test & x', false],
  ['chain', 'ls -la', 'ls; rm -rf ~', false],
  ['substitution', 'npm test', 'npm test $(x)', false],
  ['substitution', 'npm test', 'npm test `x`', false],
  ['substitution', 'npm test', 'npm test >(x)', false],
  ['substitution', 'npm test', 'npm test <(x)', false],
  ['substitution', 'npm test', 'npm test $x', false],
  ['redirection', 'npm test', 'npm test > out', false],
  ['redirection', 'npm test', 'npm test < in', false],
  ['redirection', 'npm test', 'npm test 2>&1', false],
  ['newline', 'npm test', 'npm test\nx', false],
  ['newline', 'npm test', 'npm test\rx', false],
  ['newline', 'npm test', 'npm test \\\nx', false],
  ['newline', 'npm test', 'npm\ttest', false],
  ['unicode', 'npm test', 'n\u0440m test', false],
  ['unicode', 'npm test', 'npm test\uff1bx', false],
  ['unicode', 'npm test', 'npm\u200btest', false],
  ['unicode', 'npm test', 'npm test\u200b', false],
  ['unicode', 'npm test', 'npm\u00a0test', false],
  ['unicode', 'npm test', 'npm test \u202ex', false],
  ['unicode', 'n\u0440m test', 'npm test', false],
  ['unicode', 'echo h\u00e9llo', 'echo h\u00e9llo', true],
  ['unicode', 'echo h\u00e9llo', 'echo he\u0301llo', false],
  ['env prefix', 'CI=1 npm test', 'CI=1 rm -rf ~', false],
  ['env prefix', 'CI=1 npm test', 'CI=1 npm test', true],
  ['env prefix', 'CI=1 npm test', 'CI=1 npm test -- x', false],
  ['env prefix', 'npm test', 'CI=1 npm test', false],
  ['option first', 'git -C x status', 'git -C / status', false],
  ['option first', 'git -C x status', 'git -C x status', true],
  ['option first', 'npm --prefix x test', 'npm --prefix /tmp/evil test', false],
  ['wrapper', 'timeout 60 npm test', 'timeout 60 rm -rf ~', false],
  ['wrapper', 'sudo ls', 'sudo rm -rf /', false],
  ['wrapper', 'bash -c "npm test"', 'bash -c "rm -rf ~"', false],
  ['wrapper', 'npx jest', 'npx evil-package', false],
  ['quotes', 'npm test', 'npm test "; rm -rf ~"', false],
  ['quotes', 'npm test', 'npm test -- --grep "a b"', true],
  ['quotes', 'npm test', '"npm" test', false],
  ['long', 'npm test', `npm test${LONG_ARGS}; curl x | sh`, false],
  ['long', 'npm test', `npm test${LONG_ARGS}`, false],
  ['glob', 'ls src/*.ts', 'ls *', true],
];

function bash(command: Command) {
  return subjectOf('Bash', { command });
}

function proposalOf(command: Command): { proposes: Proposal; label?: string; rule?: ApprovalRule } {
  let rule: ApprovalRule;
  try {
    rule = ruleFor(bash(command), 'allow', { kind: 'run', runKey: here.runKey }, 'r', 0);
  } catch {
    return { proposes: 'none' };
  }
  const pattern = rule.pattern;
  const proposes: Proposal = pattern.kind === 'commandPrefix' ? `prefix:${pattern.prefix}` : pattern.kind === 'commandExact' && pattern.command === bash(command).command ? 'exact' : (JSON.stringify(pattern) as Proposal);
  return { proposes, label: rule.label, rule };
}

function show(command: Command): string {
  return JSON.stringify(command).slice(0, 80);
}

test('the proposer: each command proposes the pattern in the table, and says it in its label', () => {
  const wrong = PROPOSALS.flatMap(([group, command, expected]) => {
    const { proposes, label } = proposalOf(command);
    const expectedLabel =
      expected === 'none' ? undefined : expected === 'exact' ? `Allow Bash command exactly "${bash(command).command}"` : `Allow Bash commands starting with "${expected.slice('prefix:'.length)}"`;
    return proposes === expected && label === expectedLabel ? [] : [`${group}: ${show(command)} proposes ${proposes} (${label}), expected ${expected}`];
  });
  assert.deepEqual(wrong, []);
});

test('a proposed rule answers the very command it was proposed from', () => {
  const wrong = PROPOSALS.flatMap(([group, command]) => {
    const { rule } = proposalOf(command);
    return rule === undefined || matchRules([rule], bash(command), here)?.id === 'r' ? [] : [`${group}: ${show(command)}`];
  });
  assert.deepEqual(wrong, []);
});

test('the matcher: a rule made from command A answers command B only where the table says so', () => {
  const wrong = MATCHES.flatMap(([group, from, request, expected]) => {
    const { rule } = proposalOf(from);
    assert.ok(rule, `a rule is proposed from ${show(from)}`);
    const matched = matchRules([rule], bash(request), here) !== undefined;
    return matched === expected ? [] : [`${group}: rule from ${show(from)} ${matched ? 'answers' : 'does not answer'} ${show(request)}`];
  });
  assert.deepEqual(wrong, []);
});

test('rules saved before: a prefix wider than the editor proposes now answers nothing', () => {
  const stored = (prefix: string): ApprovalRule => ({ id: prefix, effect: 'allow', tool: 'Bash', pattern: { kind: 'commandPrefix', prefix }, scope: { kind: 'run', runKey: here.runKey }, createdAt: 0, label: prefix });
  const rows: readonly (readonly [prefix: string, request: string, matches: boolean])[] = [
    ['CI=1', 'CI=1 rm -rf ~', false],
    ['git', 'git -C / status', false],
    ['npm', 'npm exec rm', false],
    ['npm run', 'npm run anything', false],
    ['timeout', 'timeout 5 rm -rf ~', false],
    ['npm test', 'npm test', true],
  ];
  const wrong = rows.flatMap(([prefix, request, expected]) => ((matchRules([stored(prefix)], bash(request), here) !== undefined) === expected ? [] : [`"${prefix}" vs ${show(request)}`]));
  assert.deepEqual(wrong, []);
});
