/**
 * The test-only entry (switchboardTestHooks.ts): a command, registered by extension.ts only in an extension host
 * started for tests, that returns the hooks standing in for what a test cannot do in a real window, and the services
 * a test drives directly. The questions a test answers are not swapped in the services: in a test host they are built
 * with `SwitchablePrompts.prompts`, which ask the answer a test set, or the modal when none is set.
 */
import * as vscode from 'vscode';
import type { SwitchboardTestHooks, TestServices } from '../switchboardTestHooks';
import { TEST_HOOKS_COMMAND } from '../switchboardTestHooks';
import type { WindowFocus } from './approvals/approvalAttention';
import type { EditFirstMessage } from './checkpoints/firstMessageEditor';
import type { UserPrompts } from './userPrompts';
import { MODAL_PROMPTS } from './userPrompts';

type Answers = { -readonly [K in keyof UserPrompts]?: UserPrompts[K] };

/** The questions of a host started for tests: each asks the answer a test set, else the real modal. */
export class SwitchablePrompts {
  private answers: Answers = {};
  readonly prompts: UserPrompts = Object.freeze({
    confirmRule: (...args: Parameters<UserPrompts['confirmRule']>) => (this.answers.confirmRule ?? MODAL_PROMPTS.confirmRule)(...args),
    protectedWrite: (...args: Parameters<UserPrompts['protectedWrite']>) => (this.answers.protectedWrite ?? MODAL_PROMPTS.protectedWrite)(...args),
    protectedApply: (...args: Parameters<UserPrompts['protectedApply']>) => (this.answers.protectedApply ?? MODAL_PROMPTS.protectedApply)(...args),
    consent: (...args: Parameters<UserPrompts['consent']>) => (this.answers.consent ?? MODAL_PROMPTS.consent)(...args),
    confirmRemoval: (...args: Parameters<UserPrompts['confirmRemoval']>) => (this.answers.confirmRemoval ?? MODAL_PROMPTS.confirmRemoval)(...args),
    confirmRewind: (...args: Parameters<UserPrompts['confirmRewind']>) => (this.answers.confirmRewind ?? MODAL_PROMPTS.confirmRewind)(...args),
  });

  /** The first message of a continued run, as a test answers it (undefined: the editor asks, as for a person). */
  firstMessage: EditFirstMessage | undefined;

  /** Sets (or, with `undefined`, removes) the answers to some questions; the others are kept. */
  answer(answers: Answers): void {
    this.answers = { ...this.answers, ...answers };
  }
}

export interface TestHookTargets {
  readonly windowFocus: WindowFocus;
  readonly prompts: SwitchablePrompts;
  readonly services: TestServices;
  readonly storageDir: string;
}

export function registerTestHooks(targets: TestHookTargets): vscode.Disposable {
  const { windowFocus, prompts, services, storageDir } = targets;
  const hooks: SwitchboardTestHooks = {
    ...services,
    setWindowFocused: (focused) => windowFocus.setOverride(focused),
    setRuleConfirmation: (confirm) => prompts.answer({ confirmRule: confirm }),
    setProtectedPathConfirmations: (answers) => prompts.answer({ protectedWrite: answers?.write, protectedApply: answers?.apply }),
    setConsentPrompt: (prompt) => prompts.answer({ consent: prompt }),
    setRemovalConfirmation: (confirm) => prompts.answer({ confirmRemoval: confirm }),
    setRewindConfirmation: (confirm) => prompts.answer({ confirmRewind: confirm }),
    setFirstMessageAnswer: (edit) => {
      prompts.firstMessage = edit;
    },
    storageDir,
  };
  return vscode.commands.registerCommand(TEST_HOOKS_COMMAND, () => hooks);
}
