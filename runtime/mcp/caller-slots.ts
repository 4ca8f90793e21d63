/**
 * Counts of what each caller holds at once (requests being served, open subscriptions), so that no one caller takes
 * the slots every caller shares.
 */
export class CallerSlots {
  readonly #held = new Map<string, number>();
  #total = 0;

  /** All slots held, by every caller. */
  get total(): number {
    return this.#total;
  }

  /** Take a slot for `caller` if it holds fewer than `perCaller` and all hold fewer than `overall`; a release function, or `undefined`. */
  take(caller: string, perCaller: number, overall = Infinity): (() => void) | undefined {
    const held = this.#held.get(caller) ?? 0;
    if (held >= perCaller || this.#total >= overall) return undefined;
    this.#held.set(caller, held + 1);
    this.#total++;
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      this.#total--;
      const left = (this.#held.get(caller) ?? 1) - 1;
      if (left === 0) this.#held.delete(caller);
      else this.#held.set(caller, left);
    };
  }
}
