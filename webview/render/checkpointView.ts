/**
 * A file-checkpoint marker (issue #26): a rule across the transcript like a turn boundary, saying which checkpoint it
 * is and how many files changed since the one before, with *Rewind files to here* and (after a turn) *Continue from
 * here* — disabled, its tooltip saying why, when the run's connection cannot start the new run; a rewind's marker says
 * what came of it and offers *Redo* while it is the newest. One line: in a narrow view the buttons show only their
 * icons (their titles name them) and the label is cut with an ellipsis (media/transcript.css). The buttons only ask
 * the host, which shows, previews and asks before any file is written or run started. Every text is set as text
 * (paths in `summary` come from the repository).
 */
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { appendChildren, button, codicon, h } from '../dom';
import { simpleView } from './itemShell';
import type { ItemView, RenderContext } from './renderContext';

type CheckpointItem = Extract<TranscriptItem, { kind: 'checkpoint' }>;

/** "Checkpoint · turn 2 · 3 files changed" / "Checkpoint · start of the run" / "Files rewound · …". */
export function checkpointLabel(item: CheckpointItem): string {
  if (item.mark === 'rewound') {
    return item.summary !== undefined ? `Files rewound · ${item.summary}` : 'Files rewound';
  }
  const turn = item.turn === undefined ? undefined : item.turn === 0 ? 'start of the run' : `turn ${item.turn}`;
  const files = item.files === undefined ? undefined : item.files === 0 ? 'no files changed' : `files: ${item.files} changed`;
  return ['Checkpoint', turn, files].filter((part) => part !== undefined).join(' · ');
}

export function checkpointView(item: CheckpointItem, ctx: RenderContext): ItemView {
  return simpleView(item, (row, next) => render(row, next as CheckpointItem, ctx));
}

function render(row: HTMLElement, item: CheckpointItem, ctx: RenderContext): void {
  row.classList.add('item-line', `checkpoint-${item.mark}`);
  const ask = (type: 'rewindFiles' | 'redoRewind' | 'continueFromCheckpoint'): void => {
    const runKey = ctx.runKey();
    if (runKey !== null) {
      ctx.post({ type, runKey, checkpointId: item.checkpointId });
    }
  };
  const label = checkpointLabel(item);
  appendChildren(row, [
    h('span', { class: 'turn-rule', 'aria-hidden': 'true' }),
    codicon(item.mark === 'rewound' ? 'discard' : 'history'),
    h('span', { class: 'checkpoint-label', title: label }, label),
    item.unavailable !== undefined
      ? h('span', { class: 'checkpoint-unavailable', title: item.unavailable, 'aria-label': item.unavailable }, codicon('warning'), h('span', { class: 'checkpoint-unavailable-text' }, item.unavailable))
      : null,
    item.mark === 'turn' && item.rewindable
      ? button({ label: `Rewind files to here: ${label}`, text: 'Rewind files to here', icon: 'discard', className: 'secondary checkpoint-rewind', onClick: () => ask('rewindFiles') })
      : null,
    item.mark === 'turn' && item.rewindable && (item.turn ?? 0) > 0 ? continueButton(label, ctx, () => ask('continueFromCheckpoint')) : null,
    item.mark === 'rewound' && item.redo === true
      ? button({ label: 'Redo: put the files back as they were before this rewind', text: 'Redo', icon: 'redo', className: 'secondary checkpoint-redo', onClick: () => ask('redoRewind') })
      : null,
    h('span', { class: 'turn-rule', 'aria-hidden': 'true' }),
  ]);
}

/** *Continue from here*: enabled, or disabled with why as its tooltip (a disabled button shows no title in some
 * webviews: the reason is on a wrapper too, and read by screen readers through the label). */
function continueButton(label: string, ctx: RenderContext, onClick: () => void): HTMLElement {
  const blocked = ctx.continueBlocked();
  const text = 'Continue from here';
  const el = button({
    label: blocked === undefined ? `Continue from here in a new run: rewind the files to ${label} and give the new run the conversation up to it` : `Continue from here: not available — ${blocked}`,
    text,
    icon: 'debug-continue',
    className: 'secondary checkpoint-continue',
    onClick,
  });
  if (blocked === undefined) {
    return el;
  }
  el.disabled = true;
  return h('span', { class: 'checkpoint-continue-blocked', title: `Continue from here: ${blocked}` }, el);
}
