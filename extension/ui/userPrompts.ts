/**
 * The questions through which the person decides what the product may do without asking again: saving an approval
 * rule, a write to a protected path, applying protected files, connecting a connection a repository defines, deleting
 * runs for good, rewinding a run's files. Each
 * service is given its question once, at construction (extension.ts), and keeps it in a private field, so nothing
 * else in the extension host (the public API included) can swap a question for an answer. A user's host gets the
 * modals; only a host started for tests gets switchable answers (ui/testHooks.ts), since its workbench refuses modals.
 */
import type { ConfirmRule } from './approvals/approvalRuleFlow';
import type { ConfirmRemoval } from './commands/removalPrompt';
import { modalConfirmRemoval } from './commands/removalPrompt';
import { modalConfirmRule } from './approvals/approvalRuleFlow';
import type { ConfirmRewind } from './checkpoints/rewindPrompt';
import { modalConfirmRewind } from './checkpoints/rewindPrompt';
import type { ConfirmProtectedApply, ConfirmProtectedWrite } from './protectedPathPrompts';
import { modalProtectedApply, modalProtectedWrite } from './protectedPathPrompts';
import type { ConsentPrompt } from './workspaceConnections/workspaceConnections';
import { modalConsentPrompt } from './workspaceConnections/workspaceConnections';

export interface UserPrompts {
  readonly confirmRule: ConfirmRule;
  readonly protectedWrite: ConfirmProtectedWrite;
  readonly protectedApply: ConfirmProtectedApply;
  readonly consent: ConsentPrompt;
  /** Deleting runs for good (*Remove Run*, *Clear Finished Runs…*). */
  readonly confirmRemoval: ConfirmRemoval;
  /** Writing a checkpoint's files back (*Rewind files to here*, *Redo*), with a decision per path asked about. */
  readonly confirmRewind: ConfirmRewind;
}

/** The real questions: modal dialogs. */
export const MODAL_PROMPTS: UserPrompts = Object.freeze({
  confirmRule: modalConfirmRule,
  protectedWrite: modalProtectedWrite,
  protectedApply: modalProtectedApply,
  consent: modalConsentPrompt,
  confirmRemoval: modalConfirmRemoval,
  confirmRewind: modalConfirmRewind,
});
