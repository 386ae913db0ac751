/** Sample runs and transcript items for the webview tier: at least one item of every kind. */
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import type { HostToWebview, RunSummary } from '../../extension/protocol/webviewMessages';

export const RUN_KEY = 'scv:local:run-1';

export function sampleRun(overrides: Partial<RunSummary> = {}): RunSummary {
  return {
    key: RUN_KEY,
    protocol: 'scv',
    connectionName: 'SCV (local)',
    runId: 'run-1',
    title: 'Refactor the config loader',
    provider: 'anthropic',
    model: 'claude-sonnet-4',
    state: 'running',
    pendingApprovals: 1,
    actions: { send: true, queues: false, stop: true, end: false, changeSet: true },
    ...overrides,
  };
}

export function snapshot(items: TranscriptItem[], run: RunSummary | null = sampleRun(), seq = 0): HostToWebview {
  return { type: 'snapshot', run, items, seq };
}

const LONG_OUTPUT = Array.from({ length: 45 }, (_, i) => `line ${i + 1}: ok`).join('\n');

export function everyKind(): TranscriptItem[] {
  return [
    { id: 'u1', kind: 'user', text: 'Please refactor loadConfig()\nand add tests.', note: 'initial prompt' },
    { id: 'turn1', kind: 'turn', turnId: 't1', phase: 'started' },
    { id: 'r1', kind: 'reasoning', text: 'The loader reads **three** files; I should check each.', streaming: false },
    {
      id: 't1',
      kind: 'text',
      streaming: false,
      text: [
        "I'll start by reading `config.ts`. See [the docs](https://example.com/docs) or https://example.org/faq.",
        '',
        '- first point',
        '- second point',
        '',
        '```ts',
        'export function loadConfig(path: string) {',
        '  return JSON.parse(readFileSync(path, "utf8"));',
        '}',
        '```',
        '',
        '| option | default |',
        '|:--|--:|',
        '| retries | 3 |',
      ].join('\n'),
    },
    {
      id: 'tool1',
      kind: 'tool',
      callId: 'c1',
      name: 'bash',
      input: { command: 'npm test -- --grep config', timeout: 120 },
      status: 'succeeded',
      output: LONG_OUTPUT,
      truncated: false,
    },
    {
      id: 'tool2',
      kind: 'tool',
      callId: 'c2',
      name: 'edit_file',
      input: { path: 'src/config.ts', old: 'a', new: 'b' },
      status: 'failed',
      output: 'patch did not apply',
      truncated: true,
      errorKind: 'patch_conflict',
    },
    {
      id: 'tool3',
      kind: 'tool',
      callId: 'c3',
      name: 'run_tests',
      input: { suite: 'unit' },
      status: 'running',
      output: '',
      truncated: false,
      progress: '12/40 tests',
    },
    {
      id: 'a1',
      kind: 'approval',
      approvalId: 'ap-1',
      title: 'Run shell command',
      summary: 'rm -rf build && npm run build',
      risk: 'high',
      detail: { command: 'rm -rf build && npm run build', cwd: '/work/project' },
      options: ['allow_once', 'allow_similar', 'deny'],
      status: 'pending',
      hasDiff: false,
    },
    {
      id: 'a2',
      kind: 'approval',
      approvalId: 'ap-2',
      title: 'Edit src/config.ts',
      detail: { path: 'src/config.ts' },
      options: ['allow_once', 'deny'],
      status: 'decided',
      decision: 'allow_once',
      hasDiff: true,
    },
    { id: 'usage1', kind: 'usage', data: { input_tokens: 1200, output_tokens: 350 }, summary: '1.2k in · 350 out tokens' },
    { id: 'rl1', kind: 'rateLimit', data: { remaining: 10 }, summary: 'Rate limit: 10 requests left' },
    { id: 'cmp1', kind: 'compaction', data: {}, summary: 'Context compacted (48k → 12k tokens)' },
    { id: 'e1', kind: 'error', message: 'Provider returned 529 (overloaded)', code: 'overloaded' },
    { id: 'n1', kind: 'notice', text: 'Reconnected to the daemon', level: 'info' },
    { id: 'n2', kind: 'notice', text: 'Older events were dropped', level: 'warning', state: 'running' },
    { id: 'g1', kind: 'gap', from: 41, to: 57, reason: 'retention' },
    {
      id: 'm1',
      kind: 'message',
      from: 'reviewer-bot',
      body: 'Can you also cover **empty** files?',
      at: '2025-01-02T10:30:00Z',
      messageId: 'msg-1',
    },
    { id: 'm2', kind: 'message', from: 'operator', body: 'Yes, please.', at: '2025-01-02T10:31:00Z', messageId: 'msg-2', inReplyTo: 'msg-1' },
    { id: 'raw1', kind: 'raw', label: 'scv.unknown_event', data: { type: 'x.y', payload: { a: 1 } } },
    { id: 'turn1-end', kind: 'turn', turnId: 't1', phase: 'completed', summary: '3 files changed' },
  ];
}
