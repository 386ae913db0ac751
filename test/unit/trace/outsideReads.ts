/**
 * Finds code that reaches outside the repository: the build, the tests and the extension must work in a clone with
 * nothing beside it (issue 24). It looks at code only — comments citing the upstream spec ("WIRE.md 1.9") are fine —
 * by walking the TypeScript syntax tree of every script, so a path in a comment is never taken for a read:
 *   - `join`/`resolve`-style calls whose arguments start from `__dirname` / `import.meta.dirname` and whose
 *     literal segments climb above the repository root;
 *   - `new URL('<relative>', import.meta.url)` that resolves above the root;
 *   - a literal `'shared'` segment right after a `'..'` segment (`join(root, '..', 'shared')`);
 *   - any string naming the sibling spec folder (`../shared`, `shared/protocols`, `/work/shared`).
 * Shell scripts and package.json scripts are checked for those names outside `#` comments.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

export interface OutsideRead {
  /** Repository-relative path. */
  readonly file: string;
  readonly line: number;
  readonly why: string;
}

const SIBLING_SPEC = /\.\.[/\\]shared\b|\bshared[/\\]protocols\b|\/work\/shared\b/;
const SCRIPT = /\.(?:ts|mts|cts|mjs|cjs|js)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'out', 'test-results', '.git', '.vscode-test']);

function isDirnameExpression(node: ts.Node): boolean {
  if (ts.isIdentifier(node)) {
    return node.text === '__dirname';
  }
  // import.meta.dirname
  return ts.isPropertyAccessExpression(node) && node.name.text === 'dirname' && ts.isMetaProperty(node.expression);
}

function isImportMetaUrl(node: ts.Node): boolean {
  return ts.isPropertyAccessExpression(node) && node.name.text === 'url' && ts.isMetaProperty(node.expression);
}

function literalText(node: ts.Node): string | undefined {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
}

function outside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** What one script's code (not its comments) reads outside `root`. `text` is the file's content. */
export function scanScript(root: string, absFile: string, text: string): OutsideRead[] {
  const found: OutsideRead[] = [];
  const source = ts.createSourceFile(absFile, text, ts.ScriptTarget.Latest, true);
  const file = relative(root, absFile);
  const report = (node: ts.Node, why: string): void => {
    found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, why });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) {
      if (SIBLING_SPEC.test(node.text)) {
        report(node, `names a path beside the repository: ${JSON.stringify(node.text)}`);
      }
    }
    if (ts.isCallExpression(node)) {
      const args = node.arguments;
      for (let i = 1; i < args.length; i++) {
        if (literalText(args[i]!) === 'shared' && literalText(args[i - 1]!) === '..') {
          report(node, "joins '..' with 'shared'");
        }
      }
      const from = args.findIndex(isDirnameExpression);
      if (from >= 0) {
        const segments: string[] = [];
        for (const arg of args.slice(from + 1)) {
          const text = literalText(arg);
          if (text === undefined) {
            break;
          }
          segments.push(text);
        }
        const target = resolve(dirname(absFile), ...segments);
        if (segments.length > 0 && outside(root, target)) {
          report(node, `climbs above the repository from its own directory: ${segments.join('/')}`);
        }
      }
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'URL') {
      const [spec, base] = node.arguments ?? [];
      const text = spec && literalText(spec);
      if (text !== undefined && base && isImportMetaUrl(base) && !/^[a-z][a-z0-9+.-]*:/i.test(text)) {
        if (outside(root, resolve(dirname(absFile), text))) {
          report(node, `new URL(${JSON.stringify(text)}, import.meta.url) resolves above the repository`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A shell script's lines that name the sibling spec folder outside a `#` comment. */
export function scanShell(root: string, absFile: string, text: string): OutsideRead[] {
  const file = relative(root, absFile);
  return text.split('\n').flatMap((line, i) => {
    const code = line.replace(/(^|\s)#.*$/, '');
    return SIBLING_SPEC.test(code) ? [{ file, line: i + 1, why: `names a path beside the repository: ${code.trim()}` }] : [];
  });
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (!SKIPPED_DIRS.has(name)) {
        walk(full, out);
      }
    } else {
      out.push(full);
    }
  }
}

/** Every script the build, the tests, CI and the extension run, and package.json's scripts, scanned. */
export function scanRepository(root: string): OutsideRead[] {
  const files: string[] = [];
  for (const dir of ['extension', 'webview', 'test', 'bench', '.ci']) {
    walk(join(root, dir), files);
  }
  for (const name of readdirSync(root)) {
    if (SCRIPT.test(name)) {
      files.push(join(root, name));
    }
  }
  const found: OutsideRead[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (SCRIPT.test(file)) {
      // Every rule needs one of these words in the code, so a file without them is not parsed (most are not).
      if (/shared|__dirname|import\.meta/.test(text)) {
        found.push(...scanScript(root, file, text));
      }
    } else if (file.endsWith('.sh') || dirname(file) === join(root, '.ci')) {
      found.push(...scanShell(root, file, text));
    }
  }
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  for (const [name, command] of Object.entries(scripts)) {
    if (SIBLING_SPEC.test(command)) {
      found.push({ file: 'package.json', line: 0, why: `script "${name}" names a path beside the repository: ${command}` });
    }
  }
  return found;
}
