/**
 * The words of an approval notification: which run, on which connection, which tool and what it would do, so two
 * requests waiting at once can be told apart. Pure (no `vscode`); every part is agent or daemon data and goes through
 * `sanitizeNotificationText` (names) or `sanitizeCommandText` (what it would do: never cut where the cut hides
 * what runs).
 */
import type { ApprovalInfo } from '../../model/modelTypes';
import { protectedPathsOfSubject } from '../../model/pathRules';
import { subjectIsComplete } from '../../protocol/transcriptTypes';
import { sanitizeCommandText, sanitizeNotificationText } from '../notificationText';

/** The head of a command the editor holds only in part, and where to see the rest. */
function cutTarget(target: string): string {
  return `${sanitizeNotificationText(target, 60)} (not shown whole here: open the approval card)`;
}

/** What the request would do, in one line: the daemon's summary, else the command or the files it names. */
export function approvalWhat(approval: Pick<ApprovalInfo, 'title' | 'summary' | 'subject'>): string {
  const subject = approval.subject;
  const tool = subject?.tool ?? approval.title;
  const target = approval.summary ?? subject?.command ?? subject?.paths?.join(', ');
  if (target === undefined || target === tool) {
    return sanitizeNotificationText(approval.title === tool ? tool : `${tool}: ${approval.title}`, 160);
  }
  // The subject's own text was cut to its bound when it is not whole: its tail would not be the command's tail.
  const partial = approval.summary === undefined && subject !== undefined && !subjectIsComplete(subject);
  return `${sanitizeNotificationText(tool, 40)} — ${partial ? cutTarget(target) : sanitizeCommandText(target, 160)}`;
}

/** `Approval needed in "Fix the parser" (AgencyProxy): Edit — /ws/src/a.ts`. */
export function approvalNotificationText(approval: Pick<ApprovalInfo, 'title' | 'summary' | 'subject'>, runTitle: string | undefined, connectionName: string | undefined): string {
  const run = runTitle !== undefined ? ` in "${sanitizeNotificationText(runTitle, 60)}"` : '';
  const where = connectionName !== undefined ? ` (${sanitizeNotificationText(connectionName, 40)})` : '';
  // A protected path is said up front: no rule answers it, and allowing it can let the agent run programs.
  const guarded = protectedPathsOfSubject(approval.subject).length > 0 ? ' — protected path: can run programs when VS Code or git reads it' : '';
  return `Approval needed${run}${where}: ${approvalWhat(approval)}${guarded}`;
}
