/**
 * Prefix sums of item heights for the virtual list: point update, prefix sum and "which index holds offset y" in
 * O(log n), append in O(log n) amortized, build in O(n). A 100,000-item transcript therefore never costs O(n) per
 * frame: only a snapshot (re)builds the tree.
 */
export class FenwickTree {
  private values: Float64Array;
  /** 1-based Fenwick array; `tree[i]` covers `values[i - lowbit(i), i)`. */
  private tree: Float64Array;
  private count = 0;

  constructor(initialCapacity = 1024) {
    this.values = new Float64Array(initialCapacity);
    this.tree = new Float64Array(initialCapacity + 1);
  }

  get length(): number {
    return this.count;
  }

  /** Sum of all values. */
  get total(): number {
    return this.prefix(this.count);
  }

  /** Replaces the contents with `values` in O(n). */
  reset(values: ArrayLike<number>): void {
    const capacity = Math.max(1024, nextPowerOfTwo(values.length));
    this.values = new Float64Array(capacity);
    this.values.set(values as ArrayLike<number>);
    this.count = values.length;
    this.rebuildTree(capacity);
  }

  get(index: number): number {
    return this.values[index] ?? 0;
  }

  /** Appends one value in O(log n) (amortized; the arrays double when full). */
  push(value: number): void {
    if (this.count === this.values.length) {
      const capacity = this.values.length * 2;
      const values = new Float64Array(capacity);
      values.set(this.values);
      this.values = values;
      this.rebuildTree(capacity);
    }
    const index = this.count;
    this.values[index] = value;
    this.count++;
    // tree[i] = value + the sum of values[i - lowbit(i), i - 1), which is the difference of two prefixes.
    const i = index + 1;
    const from = i - (i & -i);
    this.tree[i] = value + this.prefix(index) - this.prefix(from);
  }

  /** Sets `values[index]` in O(log n). */
  set(index: number, value: number): void {
    if (index < 0 || index >= this.count) {
      return;
    }
    const delta = value - (this.values[index] ?? 0);
    if (delta === 0) {
      return;
    }
    this.values[index] = value;
    for (let i = index + 1; i < this.tree.length; i += i & -i) {
      this.tree[i] = (this.tree[i] ?? 0) + delta;
    }
  }

  /** Sum of `values[0, end)`. */
  prefix(end: number): number {
    let sum = 0;
    for (let i = Math.min(end, this.count); i > 0; i -= i & -i) {
      sum += this.tree[i] ?? 0;
    }
    return sum;
  }

  /**
   * The index whose span `[prefix(i), prefix(i + 1))` contains `offset`, clamped to `[0, length - 1]`
   * (0 when empty).
   */
  indexAt(offset: number): number {
    if (this.count === 0 || offset <= 0) {
      return 0;
    }
    let pos = 0;
    let remaining = offset;
    for (let step = highestPowerOfTwoAtMost(this.tree.length - 1); step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.count && (this.tree[next] ?? 0) <= remaining) {
        pos = next;
        remaining -= this.tree[next] ?? 0;
      }
    }
    return Math.min(pos, this.count - 1);
  }

  private rebuildTree(capacity: number): void {
    const tree = new Float64Array(capacity + 1);
    for (let i = 1; i <= this.count; i++) {
      tree[i] = (tree[i] ?? 0) + (this.values[i - 1] ?? 0);
      const parent = i + (i & -i);
      if (parent <= capacity) {
        tree[parent] = (tree[parent] ?? 0) + (tree[i] ?? 0);
      }
    }
    this.tree = tree;
  }
}

function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) {
    p *= 2;
  }
  return p;
}

function highestPowerOfTwoAtMost(n: number): number {
  let p = 1;
  while (p * 2 <= n) {
    p *= 2;
  }
  return n < 1 ? 0 : p;
}
