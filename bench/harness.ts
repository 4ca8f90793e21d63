/**
 * Measuring, the same way for every benchmark: in-process variants in alternating rounds, child processes in
 * alternating order, their statistics. Nothing here knows what is being measured.
 */
import { spawnSync } from "node:child_process";

/** Median and quartiles of a sample. */
export interface Stats {
  median: number;
  p25: number;
  p75: number;
  min: number;
  max: number;
  n: number;
}

/**
 * Median and quartiles.
 */
export function stats(values: readonly number[]): Stats {
  if (values.length === 0) return { median: NaN, p25: NaN, p75: NaN, min: NaN, max: NaN, n: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    n: sorted.length,
  };
}

function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

/** Runs `n` operations (awaiting each as the variant sees fit) and returns something derived from their results. */
export type Batch = (n: number) => Promise<unknown> | unknown;

export interface Variant {
  label: string;
  batch: Batch;
}

export interface InterleaveOptions {
  /** Measured rounds; each round times one batch of every variant. */
  rounds: number;
  /** Target duration of one batch; N is calibrated per variant to reach it. */
  batchMs: number;
  /** Minimum time each variant runs before measuring (JIT warm-up; calibration counts). */
  warmupMs: number;
}

export interface InterleaveResult {
  /** ns per operation, per variant label. */
  ns: Record<string, Stats>;
  /** Per-round ratio variant / first variant, median'd: `ratios[label]` for every label (the first gives 1). */
  ratios: Record<string, Stats>;
  /** ns per operation of every round, per variant (round i of every variant ran side by side). */
  perRound: Record<string, number[]>;
  /** Operations per batch, per variant. */
  opsPerBatch: Record<string, number>;
  rounds: number;
}

/** Keeps results alive so the JIT cannot drop the work that produced them. */
let sink: unknown;
export function consume(value: unknown): void {
  sink = value;
}
export function sinkValue(): unknown {
  return sink;
}

async function timeBatch(batch: Batch, n: number): Promise<number> {
  // No forced GC between batches: a full collection before each batch made the next one slower and bimodal
  // (feedback and inline caches are partly cleared), which measured the collector rather than the code. Batches are
  // long enough that each variant pays for its own garbage in scavenges, and the interleaving spreads the rest.
  const start = process.hrtime.bigint();
  consume(await batch(n));
  return Number(process.hrtime.bigint() - start);
}

/**
 * N such that one batch takes about `batchMs`, sized from warm batches (JIT-compiled) by the median of five, so a
 * single batch slowed by something else on the machine does not size every later one.
 */
async function calibrate(batch: Batch, batchMs: number, warmupMs: number): Promise<number> {
  const target = batchMs * 1e6;
  let n = 1;
  let spent = 0;
  // Grow until a batch is long enough to time, then run for the warm-up time.
  while (n < 1 << 24) {
    const elapsed = await timeBatch(batch, n);
    spent += elapsed;
    if (elapsed >= target / 4) break;
    n *= 2;
  }
  while (spent < warmupMs * 1e6) spent += await timeBatch(batch, n);
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) warm.push((await timeBatch(batch, n)) / n);
  return Math.max(1, Math.round(target / Math.max(stats(warm).median, 1)));
}

/**
 * Times the variants against each other: rounds alternate the order (A B C, then C B A, …); each round gives every
 * variant's ns/op and every ratio to `variants[0]` (the base), and the medians of those are reported.
 * Variants are async batches of N awaited operations, timed after a warm-up; alternating rounds make drift, turbo
 * and GC pressure hit every variant alike.
 */
export async function interleave(variants: readonly Variant[], options: InterleaveOptions): Promise<InterleaveResult> {
  const opsPerBatch: Record<string, number> = {};
  for (const variant of variants) {
    opsPerBatch[variant.label] = await calibrate(variant.batch, options.batchMs, options.warmupMs);
  }
  const perRound: Record<string, number[]> = {};
  const ratioRounds: Record<string, number[]> = {};
  for (const variant of variants) {
    perRound[variant.label] = [];
    ratioRounds[variant.label] = [];
  }
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    const ns: Record<string, number> = {};
    for (const variant of order) {
      const n = opsPerBatch[variant.label]!;
      ns[variant.label] = (await timeBatch(variant.batch, n)) / n;
    }
    const base = ns[variants[0]!.label]!;
    for (const variant of variants) {
      perRound[variant.label]!.push(ns[variant.label]!);
      ratioRounds[variant.label]!.push(ns[variant.label]! / base);
    }
  }
  const result: InterleaveResult = { ns: {}, ratios: {}, perRound, opsPerBatch, rounds: options.rounds };
  for (const variant of variants) {
    result.ns[variant.label] = stats(perRound[variant.label]!);
    result.ratios[variant.label] = stats(ratioRounds[variant.label]!);
  }
  return result;
}

/** Median'd per-round ratio a / b of two variants of one `interleave` run. */
export function roundRatio(result: InterleaveResult, a: string, b: string): Stats {
  return stats(pairRatios(result.perRound[a]!, result.perRound[b]!));
}

export interface ChildRun {
  /** Wall time of the whole process, ms (spawn to exit). */
  wallMs: number;
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Runs a process to completion and times it. Throws (with its output) when it fails. */
export function runChild(
  file: string,
  args: readonly string[],
  options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): ChildRun {
  const start = process.hrtime.bigint();
  const result = spawnSync(file, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: "utf8",
    timeout: options.timeoutMs,
    maxBuffer: 256 * 1024 * 1024,
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const run: ChildRun = { wallMs, stdout: result.stdout ?? "", stderr: result.stderr ?? "", status: result.status };
  if (result.error || result.status !== 0) {
    const why = result.error
      ? result.error.message
      : `exit ${String(result.status)}${result.signal ? ` (${result.signal})` : ""}`;
    throw new Error(
      `${[file, ...args].join(" ")} failed: ${why}\n${run.stderr.slice(-4000)}\n${run.stdout.slice(-4000)}`,
    );
  }
  return run;
}

/**
 * Runs each side `runs` times, alternating which goes first (A B, B A, A B, …), and returns every side's samples in
 * run order so that pair i of A and B ran next to each other.
 */
export function alternate<T>(
  sides: readonly string[],
  runs: number,
  runOne: (side: string, run: number) => T,
): Record<string, T[]> {
  const out: Record<string, T[]> = {};
  for (const side of sides) out[side] = [];
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) out[side]!.push(runOne(side, run));
  }
  return out;
}

/** Per-pair ratios a[i] / b[i]. */
export function pairRatios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, i) => value / b[i]!);
}
