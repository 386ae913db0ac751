/**
 * Approval rules: explicit, scoped answers to approval requests that are like one a person already answered. A rule
 * names one tool and a pattern over what the protocol says the request touches (a path glob for file edits, a
 * command prefix or one exact command for shell commands, or any input of that tool), an effect and a scope. A rule
 * never matches outside its scope: another run, another connection, or the same connection after it closed and
 * opened again (a new epoch), and never a request whose subject is not whole (cut or unreadable). Deny rules win
 * over allow rules. Pure: the UI owns storage (ui/approvals/approvalRules.ts).
 */
import type { ApprovalSubject } from '../protocol/transcriptTypes';
import { isTerminalRunState, subjectIsComplete } from '../protocol/transcriptTypes';
import type { ModelState } from './modelTypes';
import { commandExactMatches, commandPrefixMatches, proposeCommandPattern } from './commandRules';
import { coversRootTopLevel, exactPathsGlob, isProtectedSubject, pathMatchesGlob } from './pathRules';

export type RuleEffect = 'allow' | 'deny';

export type RulePattern =
  /** Every path of the request matches the glob. */
  | { readonly kind: 'pathGlob'; readonly glob: string }
  /** The shell command's first words are the prefix's, and it runs nothing else (model/commandRules.ts). */
  | { readonly kind: 'commandPrefix'; readonly prefix: string }
  /** The shell command is exactly this one, character for character. */
  | { readonly kind: 'commandExact'; readonly command: string }
  /** Any request of the tool. */
  | { readonly kind: 'anyInput' };

export type RuleScope =
  | { readonly kind: 'run'; readonly runKey: string }
  /** `epoch` counts the times the connection opened in this window: a rule dies with the connection it was made on. */
  | { readonly kind: 'connection'; readonly connectionId: string; readonly epoch: number }
  /** Stored in the workspace, for this connection profile (only when the user opted in). */
  | { readonly kind: 'workspace'; readonly connectionId: string };

export type RuleScopeKind = RuleScope['kind'];

export interface ApprovalRule {
  readonly id: string;
  readonly effect: RuleEffect;
  readonly tool: string;
  readonly pattern: RulePattern;
  readonly scope: RuleScope;
  readonly createdAt: number;
  /** What the rule says, in words (shown in the view and in the transcript of what it answered). */
  readonly label: string;
}

/** Where a request was made: its run, its connection and that connection's current epoch. */
export interface RuleContext {
  readonly runKey: string;
  readonly connectionId: string;
  readonly epoch: number;
}

function commonDirectory(paths: readonly string[]): string {
  const split = paths.map((p) => p.split('/').slice(0, -1));
  const first = split[0] ?? [];
  let n = first.length;
  for (const parts of split) {
    let i = 0;
    while (i < n && i < parts.length && parts[i] === first[i]) {
      i += 1;
    }
    n = i;
  }
  return first.slice(0, n).join('/');
}

function hasParentSegment(path: string): boolean {
  return path.split(/[\\/]/).includes('..');
}

/** Glob metacharacters in a directory name are matched literally. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]{}()!+@\\]/g, '\\$&');
}

/**
 * The pattern a rule proposed from `subject` uses: for a command its first words or the exact command
 * (model/commandRules.ts), else the files' directory (the files themselves when that directory is, or holds, one of
 * the workspace `roots`), else any input of the tool.
 */
export function patternFor(subject: ApprovalSubject, roots: readonly string[] = []): RulePattern {
  if (subject.command !== undefined) {
    return proposeCommandPattern(subject.command);
  }
  const paths = (subject.paths ?? []).filter((p) => !hasParentSegment(p));
  if (paths.length > 0 && paths.length === (subject.paths ?? []).length) {
    const dir = commonDirectory(paths);
    if (dir === '' || dir === '/' || coversRootTopLevel(dir, roots)) {
      return { kind: 'pathGlob', glob: exactPathsGlob(paths) };
    }
    return { kind: 'pathGlob', glob: `${escapeGlob(dir)}/**` };
  }
  return { kind: 'anyInput' };
}

export function patternLabel(tool: string, pattern: RulePattern): string {
  switch (pattern.kind) {
    case 'pathGlob':
      return `${tool} on files matching ${pattern.glob}`;
    case 'commandPrefix':
      return `${tool} commands starting with "${pattern.prefix}"`;
    case 'commandExact':
      return `${tool} command exactly "${pattern.command}"`;
    case 'anyInput':
      return `every ${tool} request`;
    default: {
      const _exhaustive: never = pattern;
      return _exhaustive;
    }
  }
}

export function scopeLabel(scope: RuleScope): string {
  switch (scope.kind) {
    case 'run':
      return 'this run';
    case 'connection':
      return 'this connection until it closes';
    case 'workspace':
      return 'this workspace';
    default: {
      const _exhaustive: never = scope;
      return _exhaustive;
    }
  }
}

/** Where a rule of this scope is kept, said before it is saved. */
export function storageLabel(scope: RuleScope): string {
  switch (scope.kind) {
    case 'run':
      return 'Kept in memory while this run lasts; gone when it ends, is removed, or the window closes.';
    case 'connection':
      return 'Kept in memory until this connection closes (a reconnect starts without it).';
    case 'workspace':
      return "Stored in this workspace's VS Code state until you revoke it (Approval Rules view or Reset Approval Rules).";
    default: {
      const _exhaustive: never = scope;
      return _exhaustive;
    }
  }
}

/**
 * Proposes the rule for requests like `subject` (not saved: the UI shows it first). Only for a whole subject
 * (`subjectIsComplete`): the UI offers no rule for any other, and asking for one is a mistake.
 */
export function ruleFor(subject: ApprovalSubject, effect: RuleEffect, scope: RuleScope, id: string, now: number, roots: readonly string[] = []): ApprovalRule {
  if (!subjectIsComplete(subject)) {
    throw new Error('No rule can be made from a request that was cut or could not be read.');
  }
  const pattern = patternFor(subject, roots);
  const label = `${effect === 'allow' ? 'Allow' : 'Deny'} ${patternLabel(subject.tool, pattern)}`;
  return { id, effect, tool: subject.tool, pattern, scope, createdAt: now, label };
}

export function inScope(scope: RuleScope, context: RuleContext): boolean {
  switch (scope.kind) {
    case 'run':
      return scope.runKey === context.runKey;
    case 'connection':
      return scope.connectionId === context.connectionId && scope.epoch === context.epoch;
    case 'workspace':
      return scope.connectionId === context.connectionId;
    default: {
      const _exhaustive: never = scope;
      return _exhaustive;
    }
  }
}

export function patternMatches(pattern: RulePattern, subject: ApprovalSubject): boolean {
  switch (pattern.kind) {
    case 'pathGlob': {
      const paths = subject.paths ?? [];
      // `..` could leave the directory the glob names: such a request is always asked.
      return paths.length > 0 && paths.every((p) => !hasParentSegment(p) && pathMatchesGlob(p, pattern.glob));
    }
    case 'commandPrefix':
      return subject.command !== undefined && commandPrefixMatches(pattern.prefix, subject.command);
    case 'commandExact':
      return subject.command !== undefined && commandExactMatches(pattern.command, subject.command);
    case 'anyInput':
      return true;
    default: {
      const _exhaustive: never = pattern;
      return _exhaustive;
    }
  }
}

/**
 * The rule that answers a request with `subject` made in `context`, or undefined. Deny rules win. A request naming a
 * protected path (protocol/protectedPaths.ts) is never allowed by a rule: a person decides it; a deny rule may deny.
 */
export function matchRules(rules: readonly ApprovalRule[], subject: ApprovalSubject | undefined, context: RuleContext): ApprovalRule | undefined {
  // A cut or unreadable request is always asked: a rule would answer for what nobody saw.
  if (subject === undefined || !subjectIsComplete(subject)) {
    return undefined;
  }
  const guarded = isProtectedSubject(subject);
  const matching = rules.filter((r) => r.tool === subject.tool && inScope(r.scope, context) && !(guarded && r.effect === 'allow') && patternMatches(r.pattern, subject));
  return matching.find((r) => r.effect === 'deny') ?? matching[0];
}

/**
 * Whether a rule can still answer anything: a run rule only while its run is in the store and has not ended (a run
 * that ended asks nothing more, and its rule must not stay listed as if it guarded something). Connection and
 * workspace rules have owners of their own (the connection's epoch, the user).
 */
export function ruleOutlived(rule: ApprovalRule, state: ModelState): boolean {
  if (rule.scope.kind !== 'run') {
    return false;
  }
  const run = state.runs.get(rule.scope.runKey);
  return run === undefined || isTerminalRunState(run.state) || run.state === 'stopped';
}
