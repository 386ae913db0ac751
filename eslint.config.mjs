// Lint: TypeScript rules plus the layer boundaries of docs/CONVENTIONS.md. The boundary rules are what keep the
// pure layers testable under plain Node and the webview free of host code; test/unit/lint/boundaries.test.ts
// proves they fire.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/**
 * PROTOCOL_NAMES as extension/protocol/protocolNames.ts declares it: the list the daemon registry is keyed by
 * (`Record<ProtocolName, DaemonEntry>`, so the compiler keeps the two equal). Read from the source with the
 * TypeScript parser because this config is plain JS: copying the names here is how drivers/acp once escaped its zone.
 */
export function readProtocolNames(file = join(import.meta.dirname, 'extension/protocol/protocolNames.ts')) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) {
      continue;
    }
    for (const declaration of statement.declarationList.declarations) {
      if (declaration.name.getText(source) !== 'PROTOCOL_NAMES' || declaration.initializer === undefined) {
        continue;
      }
      const list = ts.isAsExpression(declaration.initializer) ? declaration.initializer.expression : declaration.initializer;
      if (ts.isArrayLiteralExpression(list) && list.elements.every(ts.isStringLiteral)) {
        return list.elements.map((element) => element.text);
      }
    }
  }
  throw new Error(`eslint.config.mjs: ${file} must declare PROTOCOL_NAMES as an array of string literals (the lint zones are derived from it)`);
}

/** Folders under extension/drivers/ that are no daemon's: the kit, what a profile may do, the ACP agent presets. */
export const sharedDriverFolders = ['kit', 'profileTrust', 'acpPresets'];

/**
 * Each protocol's driver folder under extension/drivers/: its name in camelCase (agency-proxy -> agencyProxy), which
 * also prefixes its protocol modules (protocol/<folder>*). Throws, so lint cannot run, when a protocol has no such
 * folder or a folder is neither a daemon's nor listed in sharedDriverFolders: a daemon added to the registry always
 * gets its zone, and a driver folder named otherwise is never left without one.
 */
export function daemonDriverFolders(protocolNames = readProtocolNames(), driversDir = join(import.meta.dirname, 'extension/drivers')) {
  const folders = protocolNames.map((protocol) => protocol.replace(/-([a-z0-9])/g, (_, letter) => letter.toUpperCase()));
  const present = readdirSync(driversDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const missing = folders.filter((folder) => !present.includes(folder));
  if (missing.length > 0) {
    throw new Error(`eslint.config.mjs: no driver folder extension/drivers/${missing.join(', ')} for the protocols of PROTOCOL_NAMES (a protocol's folder is its name in camelCase)`);
  }
  const unknown = present.filter((folder) => !folders.includes(folder) && !sharedDriverFolders.includes(folder));
  if (unknown.length > 0) {
    throw new Error(`eslint.config.mjs: extension/drivers/${unknown.join(', ')} is neither a daemon's folder (PROTOCOL_NAMES) nor in sharedDriverFolders: it would have no lint zone`);
  }
  return folders;
}

const protocolNames = readProtocolNames();
/** The daemons' driver folders under extension/drivers/ (each also names its protocol modules: protocol/<daemon>*). */
const driverFolders = daemonDriverFolders(protocolNames);
/** Protocol modules every driver may use besides its own. */
const sharedProtocolModules = ['transcriptTypes', 'connectionProfile', 'protocolNames', 'panels', 'runStateDisplay'];

const noVscode = {
  name: 'vscode',
  message: "Only extension/ui and extension/extension.ts may import 'vscode': keep this layer pure so it runs under plain Node.",
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-results/**', '.vscode-test/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      curly: 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'warn',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
    },
  },
  {
    files: ['extension/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode, ...nodeBuiltins.map((name) => ({ name, message: 'extension/protocol is shared with the webview: zod only, no Node built-ins.' }))],
        },
      ],
    },
  },
  {
    files: ['extension/base/**/*.ts', 'extension/transport/**/*.ts', 'extension/drivers/**/*.ts', 'extension/model/**/*.ts', 'extension/storage/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  {
    // The model is what the view is projected from (ui/runSummary.ts), not a client of the host <-> webview
    // contract: types it shares with the view (panels, transcript items) live in their own protocol modules.
    files: ['extension/model/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [
            {
              regex: '^(\\.\\./)+protocol/webviewMessages$',
              message: 'extension/model may not import protocol/webviewMessages (the webview contract); use the protocol module the type lives in (e.g. protocol/panels).',
            },
          ],
        },
      ],
    },
  },
  {
    // The run's streaming bookkeeping is the reducer's; outside the model, model/runQueries.ts answers for it.
    files: ['extension/**/*.ts'],
    ignores: ['extension/model/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['openTools', 'openTextId', 'openReasoningId', 'openAnonymousToolId', 'itemCount'].map((property) => ({
          property,
          message: "RunInfo's streaming bookkeeping belongs to the reducer: ask extension/model/runQueries.ts instead.",
        })),
      ],
    },
  },
  {
    // The daemon-independent change-set engine: protocol schemas, Node built-ins and npm packages only. Drivers and
    // ui import it, never the other way round. The regex looks past every leading `../`, so `../../protocol/` from
    // a subfolder passes too (a `../sibling` import between subfolders would not: there are none).
    files: ['extension/changeSets/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [
            {
              regex: '^(\\.\\./)+(?!\\.\\./|protocol/)',
              message:
                'extension/changeSets is the daemon-independent change-set engine: it may import extension/protocol, Node built-ins and packages, not drivers, model, ui or other layers (they import it).',
            },
          ],
        },
      ],
    },
  },
  {
    // The driver kit is what every driver builds on. It sits between the run model and the drivers (the base driver
    // writes connection state and approval expiry into the model), so it may import the model, but no UI and no
    // concrete driver: a driver uses it without dragging either in, and it stays testable under plain Node.
    files: ['extension/drivers/kit/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [
            {
              regex: `^(\\.\\./)+(ui(/|$)|drivers/|daemonRegistry$|driverClasses$|(${driverFolders.join('|')})(/|$))`,
              message: 'extension/drivers/kit may not import extension/ui or a concrete driver (nor the daemon registry or driverClasses, which import them all): the kit is below both.',
            },
          ],
        },
      ],
    },
  },
  {
    // The UI reaches daemon features through their declarations (drivers/kit/daemonActions.ts and the daemon
    // registry), so a new daemon needs no UI change: no concrete driver classes, no branching on protocol names.
    files: ['extension/ui/**/*.ts', 'extension/extension.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        // Repeated: this block's list replaces the base one for these files.
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
        {
          selector: "BinaryExpression[operator='instanceof'][right.name=/Driver$/]",
          message: 'extension/ui may not test for a concrete driver class: declare the feature as a daemon action (drivers/kit/daemonActions.ts) or a capability.',
        },
        {
          selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal[value=/^(${protocolNames.join('|')})$/]`,
          message: 'extension/ui may not branch on a protocol name: declare the feature as a daemon action or a capability.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+drivers/([^/]+/[^/]*Driver|driverClasses)$',
              message: 'extension/ui may not import a concrete driver: use the Driver interface and the daemon registry.',
            },
          ],
        },
      ],
    },
  },
  // Each daemon's driver folder sees only what a driver is built from (docs/CONVENTIONS.md): the kit, the driver
  // contract (drivers/driver.ts, drivers/connectionManager.ts), the profile trust policy it enforces
  // (drivers/profileTrust), its own protocol modules and the shared ones, the model, transport, changeSets, base and
  // storage, and its own folder. Never another daemon's driver or the UI. One zone per protocol of PROTOCOL_NAMES
  // (driverFolders above). The regexes assume files directly in the daemon's folder (there are no subfolders).
  ...driverFolders.map((daemon) => ({
    files: [`extension/drivers/${daemon}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [
            {
              regex: `^\\.\\./(?!\\.\\./)(?!(kit/|profileTrust/|driver$|connectionManager$|${daemon}/))`,
              message: `extension/drivers/${daemon} may import from extension/drivers only the kit, profileTrust, driver.ts and connectionManager.ts: not another daemon's driver.`,
            },
            {
              regex: `^\\.\\./\\.\\./(?!\\.\\./)(?!(model|transport|changeSets|base|storage)/|protocol/(${daemon}([A-Z]\\w*)?(/[\\w/]+)?|${sharedProtocolModules.join('|')})$)`,
              message: `extension/drivers/${daemon} may import only extension/model, transport, changeSets, base, storage, its own protocol modules (protocol/${daemon}*) and the shared ones (${sharedProtocolModules.join(', ')}): not extension/ui or another daemon's protocol.`,
            },
            { regex: '^(\\.\\./){3,}', message: `extension/drivers/${daemon} may not import from outside extension/.` },
          ],
        },
      ],
    },
  })),
  {
    // One door into the model: a driver changes runs and its connection only through the kit's `DriverRuns` (the
    // base driver's `this.runs`), which decides once per driver what is journaled. A dispatch in a driver's folder
    // would be a second door (a change a reload would not replay).
    files: ['extension/drivers/*/**/*.ts'],
    ignores: ['extension/drivers/kit/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
        {
          selector: "CallExpression[callee.property.name='dispatch'][callee.object.type='MemberExpression'][callee.object.property.name='store']",
          message: "A driver changes the model only through its door (this.runs, drivers/kit/driverRuns.ts), never with store.dispatch.",
        },
        {
          selector: "CallExpression[callee.property.name='dispatch'][callee.object.name='store']",
          message: "A driver changes the model only through its door (this.runs, drivers/kit/driverRuns.ts), never with store.dispatch.",
        },
      ],
    },
  },
  {
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: "Can't use 'vscode' in webviews: talk to the host with messages from extension/protocol/webviewMessages.ts." },
            ...nodeBuiltins.map((name) => ({ name, message: 'The webview runs in a browser: no Node built-ins.' })),
          ],
          patterns: [
            {
              regex: '^(\\.\\./)+extension/(?!protocol/(webviewMessages|transcriptTypes|transcriptPatch|kindCodes|runStateDisplay|changeSetRows|visibleText)$)',
              message:
                'The webview may import only extension/protocol/webviewMessages, transcriptTypes, transcriptPatch, kindCodes, runStateDisplay, changeSetRows and visibleText from the host code.',
            },
          ],
        },
      ],
      'no-console': 'off',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-floating-promises': 'off' },
  },
  {
    // One module knows how run and approval keys are written (extension/model/runKeys.ts): nothing else builds one
    // with '::' or takes one apart by it. ESLint's no-restricted-syntax under a name of its own, since a second
    // no-restricted-syntax block would replace the zones' own selectors above instead of adding to them.
    files: ['extension/**/*.ts', 'webview/**/*.ts'],
    ignores: ['extension/model/runKeys.ts'],
    plugins: { runKeys: { rules: { 'no-key-format': (await import('eslint/use-at-your-own-risk')).builtinRules.get('no-restricted-syntax') } } },
    rules: {
      'runKeys/no-key-format': [
        'error',
        // '::1' is the IPv6 loopback address (transport/loopback.ts), not a key.
        ...['Literal[value=/::(?!1\\b)/]', 'TemplateElement[value.raw=/::(?!1\\b)/]'].map((selector) => ({
          selector,
          message: "Run and approval keys are built and read only by extension/model/runKeys.ts (runKeyOf, approvalKeyOf, asRunKey, …): no '::' elsewhere.",
        })),
      ],
    },
  },
);
