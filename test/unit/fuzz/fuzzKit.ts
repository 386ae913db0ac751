/**
 * Seeded randomness for the chaos and fuzz suites. Every suite takes its seed from FUZZ_SEED (or its default) and
 * names it in any failure, so `FUZZ_SEED=<seed> node --import tsx --test <file>` replays the exact run.
 */

/** The seed of this run: FUZZ_SEED if set, else the suite's fixed default. */
export function suiteSeed(fallback: number): number {
  const raw = process.env.FUZZ_SEED?.trim();
  const fromEnv = raw ? Number(raw) : Number.NaN;
  return Number.isInteger(fromEnv) ? fromEnv : fallback;
}

export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** mulberry32, uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  bytes(length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    for (let i = 0; i < length; i++) {
      out[i] = Math.floor(this.next() * 256);
    }
    return out;
  }

  /** A string mixing ASCII, JSON-significant characters, escapes, astral and lone surrogates. */
  string(maxLength: number): string {
    const alphabet = ['a', 'Z', '0', ' ', '"', '\\', '{', '}', '[', ']', ':', ',', '\n', '\r', '\t', '\u0000', 'é', '€', '😀', '\ud800', '<', '>'];
    let out = '';
    for (let i = this.int(0, maxLength); i > 0; i--) {
      out += this.pick(alphabet);
    }
    return out;
  }

  /** A random JSON-able value, `depth` levels deep at most. */
  json(depth = 3): unknown {
    const roll = this.int(0, depth > 0 ? 7 : 4);
    switch (roll) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.pick([0, -1, 1.5, 2 ** 53, 2 ** 53 + 2, -0, 1e308, this.int(0, 1000)]);
      case 3:
      case 4:
        return this.string(12);
      case 5:
        return Array.from({ length: this.int(0, 4) }, () => this.json(depth - 1));
      default: {
        const out: Record<string, unknown> = {};
        for (let i = this.int(0, 5); i > 0; i--) {
          out[this.pick(['type', 'kind', 'payload', 'event', 'seq', 'sequence', 'run_id', 'session_id', 'id', this.string(6)])] = this.json(depth - 1);
        }
        return out;
      }
    }
  }
}

/**
 * Runs up to `iterations` cases (a case returning `false` stops early); the first failure is rethrown naming the
 * seed and the case, so it can be replayed.
 */
export function forEachCase(suite: string, seed: number, iterations: number, body: (random: Random, index: number) => boolean | void): void {
  const random = new Random(seed);
  for (let i = 0; i < iterations; i++) {
    try {
      if (body(random, i) === false) {
        return;
      }
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(`${suite}: case ${i} failed (replay with FUZZ_SEED=${seed}): ${detail}`, { cause: error });
    }
  }
}

/** Changes a few bytes/characters of a valid input: flips, deletions, insertions, truncation, duplication. */
export function mutateText(random: Random, text: string): string {
  let out = text;
  for (let n = random.int(1, 3); n > 0; n--) {
    const at = random.int(0, out.length);
    switch (random.int(0, 5)) {
      case 0:
        out = out.slice(0, at) + out.slice(at + 1);
        break;
      case 1:
        out = out.slice(0, at) + random.pick(['"', '{', '}', ',', ':', '\\', '0', 'null', '-', 'e9', '[', ']', '\u2028']) + out.slice(at);
        break;
      case 2:
        out = out.slice(0, at);
        break;
      case 3:
        out = out.slice(0, at) + out.slice(at, at + random.int(1, 20)).repeat(2) + out.slice(at + 20);
        break;
      case 4:
        out = out.replace(/"[a-z_]+":/, `"${random.string(5)}":`);
        break;
      default:
        out = out.replace(/\d+/, random.pick(['-1', '9007199254740993', '1.5', '1e400', '0']));
    }
  }
  return out;
}

/** Splits `data` into random chunks (1 byte to `max` bytes). */
export function randomChunks(random: Random, data: Buffer, max = 4096): Buffer[] {
  const out: Buffer[] = [];
  for (let offset = 0; offset < data.length;) {
    const size = random.chance(0.2) ? random.int(1, 8) : random.int(1, max);
    out.push(data.subarray(offset, offset + size));
    offset += size;
  }
  return out;
}
