/**
 * Change sets: a verified A3S change set carrying a ~4 MiB git patch — schema check, strict base64 decode, sha256
 * digest check, UTF-8 decode and `parseGitPatch`, from the parsed response body — against `parseGitPatch` alone on
 * the same text. Target: ≤ 1.5×. The first screen of the rendered diff is timed with the webview (bench/webview.ts).
 */
import { createHash } from 'node:crypto';
import { patchText } from '../extension/changeSets/changeSetVerification';
import { verifyA3sChangeSet } from '../extension/drivers/a3s/changeSet';
import { parseGitPatch } from '../extension/changeSets/patchParser';
import { A3S_LIMITS, A3S_PROTOCOL, A3S_SCHEMA } from '../extension/protocol/a3s';
import type { BenchRow } from './benchKit';
import { prng, prose, randInt, sideBySide, timeOnce } from './benchKit';

/** A git unified diff just under `maxBytes`: many files, several hunks each, exact line counts. */
export function syntheticPatch(maxBytes: number, seed = 5): string {
  const random = prng(seed);
  const parts: string[] = [];
  let size = 0;
  for (let file = 1; ; file++) {
    const path = `src/module${file}/file${file}.ts`;
    let text = `diff --git a/${path} b/${path}\nindex ${'a'.repeat(7)}..${'b'.repeat(7)} 100644\n--- a/${path}\n+++ b/${path}\n`;
    let oldLine = 1;
    let newLine = 1;
    for (let hunk = randInt(random, 1, 6); hunk > 0; hunk--) {
      oldLine += randInt(random, 5, 40);
      newLine = oldLine + (newLine - oldLine);
      const lines: string[] = [];
      let oldCount = 0;
      let newCount = 0;
      for (let i = randInt(random, 8, 40); i > 0; i--) {
        const roll = random();
        const body = prose(random, randInt(random, 10, 90)).replace(/\n/g, ' ');
        if (roll < 0.6) {
          lines.push(` ${body}`);
          oldCount++;
          newCount++;
        } else if (roll < 0.8) {
          lines.push(`-${body}`);
          oldCount++;
        } else {
          lines.push(`+${body}`);
          newCount++;
        }
      }
      text += `@@ -${oldLine},${oldCount} +${newLine},${newCount} @@ export function f${file}()\n${lines.join('\n')}\n`;
      oldLine += oldCount;
      newLine += newCount;
    }
    if (size + Buffer.byteLength(text) > maxBytes) {
      return parts.join('');
    }
    parts.push(text);
    size += Buffer.byteLength(text);
  }
}

const identity = {
  schema: A3S_SCHEMA.runIdentity,
  protocol: A3S_PROTOCOL,
  agent_release_identity: `sha256:${'1'.repeat(64)}`,
  session_id: 'bench-session',
  run_id: 'bench-run',
};

export function changeSetBody(patch: Buffer): Record<string, unknown> {
  return {
    schema: A3S_SCHEMA.changeSet,
    identity,
    state: 'completed',
    format: 'git_unified_diff_v1',
    encoding: 'base64',
    base_tree: `git-tree:${'a'.repeat(40)}`,
    result_tree: `git-tree:${'b'.repeat(40)}`,
    patch_digest: `sha256:${createHash('sha256').update(patch).digest('hex')}`,
    patch_bytes: patch.length,
    patch_base64: patch.toString('base64'),
    observed_at_ms: 1_700_000_000_000,
  };
}

export function benchChangeSet(): BenchRow[] {
  const text = syntheticPatch(A3S_LIMITS.patchBytes);
  const patch = Buffer.from(text, 'utf8');
  // What the HTTP client hands over: the parsed JSON body (its JSON.parse is timed separately, for the note).
  const json = JSON.stringify(changeSetBody(patch));
  const body: unknown = JSON.parse(json);
  let files = 0;
  const { subjectMs, baselineMs } = sideBySide(
    () => {
      const verified = verifyA3sChangeSet(body, identity);
      files = parseGitPatch(patchText(verified)).files.length;
    },
    () => {
      parseGitPatch(text);
    },
    5,
  );
  const ratio = subjectMs / baselineMs;
  const jsonMs = timeOnce(() => JSON.parse(json));
  return [
    {
      id: 'changeSet.verifyAndParse',
      name: `Change set of ${(patch.length / 1048576).toFixed(2)} MiB (${files.toLocaleString('en-US')} files): verify (schema, strict base64, sha256) + UTF-8 + parse`,
      value: subjectMs,
      unit: 'ms CPU',
      baseline: { label: 'parseGitPatch alone', value: baselineMs, unit: 'ms CPU' },
      ratio,
      target: '≤ 1.5×',
      met: ratio <= 1.5,
      note: `JSON.parse of the ${(json.length / 1048576).toFixed(1)} MiB response body, before this: ${jsonMs.toFixed(0)} ms CPU`,
    },
  ];
}
