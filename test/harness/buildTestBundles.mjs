// Bundles what the integration tier runs inside VS Code: the mocha suites (out/test/*.js, `vscode` and `mocha`
// external) and the reference daemons (out/fixtures/<daemon>.js), which tests spawn with the extension host's Node.
import * as esbuild from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function buildTestBundles() {
  const integrationDir = join(root, 'test/integration');
  const suites = readdirSync(integrationDir).filter((f) => f.endsWith('.ts')).map((f) => join(integrationDir, f));
  await esbuild.build({
    entryPoints: suites,
    outdir: join(root, 'out/test'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    // The real ACP agents are located with require.resolve at run time (test/fixtures/acp/realAgents.ts), not bundled.
    external: ['vscode', 'mocha', '@agentclientprotocol/claude-agent-acp', '@agentclientprotocol/codex-acp', '@google/gemini-cli'],
    logLevel: 'warning',
  });
  const fixtures = {};
  for (const daemon of readdirSync(join(root, 'test/fixtures'))) {
    const main = join(root, 'test/fixtures', daemon, 'main.ts');
    if (existsSync(main)) fixtures[daemon] = main;
  }
  if (Object.keys(fixtures).length > 0) {
    await esbuild.build({
      entryPoints: fixtures,
      outdir: join(root, 'out/fixtures'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'warning',
    });
  }
  return Object.keys(fixtures);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildTestBundles();
  console.log(`built integration suites and fixtures: ${built.join(', ')}`);
}
