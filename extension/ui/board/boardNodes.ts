/**
 * The run board's element objects: one per group, per request, and per run and shape. VS Code keys what it draws by
 * these objects and by the ids of their tree items, so an object is kept as long as what it stands for is shown, and
 * its item's id never changes.
 */
import type { BoardGroupId, PlacedRow } from '../../model/boardRows';
import type { BoardNode } from './boardItems';

export class BoardNodes {
  readonly older: BoardNode = { type: 'older' };
  private readonly groups = new Map<BoardGroupId, BoardNode>();
  private readonly runs = new Map<string, BoardNode>();
  private readonly approvals = new Map<string, BoardNode>();

  group(id: BoardGroupId): BoardNode {
    return cached(this.groups, id, () => ({ type: 'group', id }));
  }

  /**
   * The run's node for its shape: a row that gains (or loses) rows under it gets a new node, because its tree item's
   * id changes with that (boardItems.ts runItem) and VS Code must never see an element's id change. A refresh of the
   * old node still queued in VS Code would otherwise go out with the new id, and VS Code then changes that item's
   * handle in place, which its renderer does not follow: its next re-render of every row (a theme change) asks for
   * the parent of an item its tree no longer has ("[TreeView] Failed to resolve parent … Data tree node not found").
   * The old node keeps its old id (`nested`) until the refresh that drops it.
   */
  run(key: string, nested: boolean): BoardNode {
    const node = this.runs.get(key);
    if (node?.type === 'run' && (node.nested ?? false) === nested) {
      return node;
    }
    const made: BoardNode = nested ? { type: 'run', key, nested } : { type: 'run', key };
    this.runs.set(key, made);
    return made;
  }

  approval(key: string, runKey: string): BoardNode {
    return cached(this.approvals, key, () => ({ type: 'approval', key, runKey }));
  }

  /** Drops the nodes of what `rows` no longer shows. */
  forgetGone(rows: ReadonlyMap<string, PlacedRow>): void {
    for (const key of this.runs.keys()) {
      if (!rows.has(key)) {
        this.runs.delete(key);
      }
    }
    for (const [key, node] of this.approvals) {
      if (node.type === 'approval' && !rows.get(node.runKey)?.row.approvals.some((a) => a.key === key)) {
        this.approvals.delete(key);
      }
    }
  }
}

function cached<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
