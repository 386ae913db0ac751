/**
 * A tool call: status icon, name, a one-line preview of the input, the input as pretty JSON, and the output.
 * A call whose command runs in the editor's terminals (ACP terminal content) links to them: "Show terminal" asks the
 * host to reveal that terminal. Long output is folded to its first FOLD_LINES lines with "Show all". Streamed output appends cost O(chunk): a Text
 * node while unfolded, a counter update while folded.
 */
import type { TranscriptItem } from '../../extension/protocol/transcriptTypes';
import { button, codicon, h, setButtonText } from '../dom';
import { countNewlines, inputPreview, prettyJson } from '../jsonText';
import { itemShell } from './itemShell';
import { bindDetails } from './renderContext';
import type { ItemView, RenderContext } from './renderContext';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

const FOLD_LINES = 20;
const FOLD_CHARS = 4_000;

const STATUS: Record<ToolItem['status'], { icon: string; label: string; extra?: string }> = {
  proposed: { icon: 'circle-large-outline', label: 'Proposed' },
  running: { icon: 'loading', label: 'Running', extra: 'codicon-modifier-spin' },
  succeeded: { icon: 'pass', label: 'Succeeded' },
  failed: { icon: 'error', label: 'Failed' },
  unknown: { icon: 'question', label: 'Status unknown' },
  cancelled: { icon: 'circle-slash', label: 'Cancelled' },
};

export function toolView(initial: ToolItem, ctx: RenderContext): ItemView {
  let item = initial;
  const element = itemShell(item);
  const outputSection = h('div', { class: 'tool-output-section' });
  let outputPre: HTMLPreElement | null = null;
  let showAllButton: HTMLButtonElement | null = null;
  let folded = false;
  let newlines = 0;
  const expandKey = `output:${item.id}`;
  const isExpanded = (): boolean => ctx.expansion(expandKey) ?? false;

  const lineCount = (): number => (item.output === '' ? 0 : newlines + (item.output.endsWith('\n') ? 0 : 1));
  const shouldFold = (): boolean => !isExpanded() && (lineCount() > FOLD_LINES || item.output.length > FOLD_CHARS);

  const renderOutput = (): void => {
    outputSection.replaceChildren();
    outputPre = null;
    showAllButton = null;
    folded = false;
    if (item.output !== '') {
      folded = shouldFold();
      outputPre = h('pre', { class: 'tool-output', tabindex: '0', 'aria-label': `Output of ${item.name}` }, folded ? head(item.output) : item.output);
      outputSection.appendChild(outputPre);
      if (folded || isExpanded()) {
        showAllButton = button({
          label: '',
          text: ' ',
          icon: folded ? 'unfold' : 'fold',
          className: 'link-button tool-show-all',
          onClick: () => {
            ctx.setExpansion(expandKey, folded, false);
            renderOutput();
            showAllButton?.focus();
          },
        });
        updateShowAll();
        outputSection.appendChild(showAllButton);
      }
    }
    if (item.truncated) {
      outputSection.appendChild(h('div', { class: 'tool-truncated-note' }, codicon('warning'), ' Output truncated by the agent'));
    }
  };
  const updateShowAll = (): void => {
    if (!showAllButton) {
      return;
    }
    const lines = lineCount();
    setButtonText(showAllButton, folded ? `Show all (${lines} line${lines === 1 ? '' : 's'})` : 'Show less');
  };

  const renderAll = (): void => {
    element.className = `item item-tool tool-${item.status}`;
    const card = h('div', { class: 'card tool-card' });
    element.replaceChildren(card);
    const status = STATUS[item.status];
    const statusIcon = codicon(status.icon, 'tool-status', ...(status.extra ? [status.extra] : []));
    statusIcon.removeAttribute('aria-hidden');
    statusIcon.setAttribute('role', 'img');
    statusIcon.setAttribute('aria-label', status.label);
    statusIcon.setAttribute('title', status.label);
    const preview = inputPreview(item.input);
    card.appendChild(
      h(
        'div',
        { class: 'tool-header' },
        statusIcon,
        h('span', { class: 'tool-name' }, item.name),
        preview ? h('span', { class: 'tool-preview', title: preview }, preview) : null,
        item.errorKind ? h('span', { class: 'badge badge-error tool-error-kind' }, item.errorKind) : null,
        item.truncated ? h('span', { class: 'badge tool-truncated' }, 'truncated') : null,
      ),
    );
    const terminals = item.terminals ?? [];
    if (terminals.length > 0) {
      card.appendChild(
        h(
          'div',
          { class: 'tool-terminals' },
          ...terminals.map((terminalId, i) =>
            button({
              label: `Show the terminal running ${item.name}`,
              text: terminals.length > 1 ? `Show terminal ${i + 1}` : 'Show terminal',
              icon: 'terminal',
              className: 'link-button tool-terminal-link',
              onClick: () => {
                const runKey = ctx.runKey();
                if (runKey !== null) {
                  ctx.post({ type: 'revealTerminal', runKey, terminalId });
                }
              },
            }),
          ),
        ),
      );
    }
    if (item.progress) {
      card.appendChild(h('div', { class: 'tool-progress' }, codicon('pulse'), ` ${item.progress}`));
    }
    if (item.input !== undefined && item.input !== null) {
      const details = h('details', { class: 'tool-input' }, h('summary', null, 'Input'), h('pre', { class: 'json' }, prettyJson(item.input)));
      bindDetails(details, ctx, `input:${item.id}`, item.status === 'proposed');
      card.appendChild(details);
    }
    newlines = countNewlines(item.output);
    renderOutput();
    card.appendChild(outputSection);
  };
  renderAll();

  return {
    element,
    update(next) {
      if (next.kind !== 'tool') {
        return;
      }
      item = next;
      renderAll();
    },
    append(field, chunk, next) {
      if (next.kind !== 'tool' || field !== 'output') {
        return;
      }
      item = next;
      newlines += countNewlines(chunk);
      if (!outputPre || (!folded && shouldFold())) {
        renderOutput();
      } else if (folded) {
        updateShowAll();
      } else {
        outputPre.appendChild(document.createTextNode(chunk));
      }
    },
    dispose() {},
  };
}

/** The first FOLD_LINES lines, at most FOLD_CHARS characters: O(head), not O(output). */
function head(output: string): string {
  let end = -1;
  for (let line = 0; line < FOLD_LINES; line++) {
    end = output.indexOf('\n', end + 1);
    if (end === -1 || end > FOLD_CHARS) {
      break;
    }
  }
  const cut = end === -1 ? Math.min(output.length, FOLD_CHARS) : Math.min(end, FOLD_CHARS);
  return output.slice(0, cut);
}
