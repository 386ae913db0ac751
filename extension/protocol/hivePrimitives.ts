/**
 * The JSON primitives every hyperhive `mcp.sock` section reads (Rust integer kinds, the unverified time values, the
 * object guard). Shared by the section modules only: `hive.ts` does not re-export them.
 */
import * as z from 'zod';

/** Rust `i64`: any safe integer (never float notation, never beyond 2^53-1). */
export const i64 = z.int();
/** Rust `u64`/`u32`: non-negative safe integer. */
export const uint = z.int().min(0);
/** Time fields of unverified types: Unix seconds on mcp.sock, but tolerate RFC 3339 strings too. */
export const TimeValue = z.union([z.number(), z.string()]);

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
