/**
 * The run board's node objects: one per group, run and approval id, handed out again for as long as its row is on
 * the board. VS Code's tree tells nodes apart by identity (`reveal`, a partial refresh), so the same row must always be
 * the same object; a node is forgotten when its row leaves the board.
 */
import type { BoardGroupId, PlacedRow } from '../../model/boardRows';
import type { BoardNode } from './boardItems';

export class BoardNodes {
  private readonly groupNodes = new Map<BoardGroupId, BoardNode>();
  private readonly runNodes = new Map<string, BoardNode>();
  private readonly approvalNodes = new Map<string, BoardNode>();
  readonly olderNode: BoardNode = { type: 'older' };

  groupNode(id: BoardGroupId): BoardNode {
    return cached(this.groupNodes, id, () => ({ type: 'group', id }));
  }

  runNode(key: string): BoardNode {
    return cached(this.runNodes, key, () => ({ type: 'run', key }));
  }

  approvalNode(key: string, runKey: string): BoardNode {
    return cached(this.approvalNodes, key, () => ({ type: 'approval', key, runKey }));
  }

  /** Drops the nodes of runs and approvals no longer among `rows`. */
  forgetGone(rows: ReadonlyMap<string, PlacedRow>): void {
    for (const key of this.runNodes.keys()) {
      if (!rows.has(key)) {
        this.runNodes.delete(key);
      }
    }
    for (const [key, node] of this.approvalNodes) {
      if (node.type === 'approval' && !rows.get(node.runKey)?.row.approvals.some((a) => a.key === key)) {
        this.approvalNodes.delete(key);
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
