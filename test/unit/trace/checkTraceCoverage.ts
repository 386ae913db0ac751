/**
 * `node --import tsx test/unit/trace/checkTraceCoverage.ts <trace.jsonl>`: prints, per protocol, how many of the
 * client message kinds of our protocol reference (docs/protocols/) the trace holds and which are missing, and whether
 * every ACP message in it is valid against the SDK's schemas (acpTraceSchemas.ts); exits 1 if any kind is missing
 * or any message invalid (test/run.mjs counts it as one check).
 */
import { readFileSync } from 'node:fs';
import { checkAcpTrace, loadAcpSchemas } from './acpTraceSchemas';
import { coverage, readProtocolDocs, requiredKinds } from './traceCoverage';

const file = process.argv[2];
if (!file) {
  console.error('usage: checkTraceCoverage.ts <trace.jsonl>');
  process.exit(2);
}
const required = requiredKinds(readProtocolDocs());
let text = '';
try {
  text = readFileSync(file, 'utf8');
} catch (error) {
  console.error(`cannot read the trace ${file}: ${String(error)}`);
}
const result = coverage(text, required);
let missingCount = 0;
for (const [protocol, kinds] of Object.entries(required)) {
  const missing = result.missing[protocol as keyof typeof required];
  missingCount += missing.length;
  const mark = missing.length === 0 ? '✔' : '✖';
  console.log(`${mark} ${protocol}: ${kinds.length - missing.length}/${kinds.length} client message kinds traced${missing.length ? `; missing: ${missing.join(', ')}` : ''}`);
}
if (result.badLines > 0) {
  console.log(`✖ ${result.badLines} trace lines are not JSON`);
}
void loadAcpSchemas().then((schemas) => {
  const acp = checkAcpTrace(text, schemas);
  const valid = acp.problems.length === 0 && acp.checked > 0;
  console.log(`${valid ? '✔' : '✖'} acp: ${acp.checked - acp.problems.length}/${acp.checked} messages valid against the SDK's schemas`);
  for (const problem of acp.problems.slice(0, 20)) {
    console.log(`    ${problem}`);
  }
  process.exit(missingCount === 0 && result.badLines === 0 && valid ? 0 : 1);
});
