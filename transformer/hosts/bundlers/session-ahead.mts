/**
 * When a watch or dev session opens TypeScript 7's session ahead of an edit (issue 49). A watch whose first build the
 * persistent cache answered started no `tsc --api` process, so the first edit paid the process's start and the
 * project's opening (about a second for 500 tools) inside its rebuild. The opening is synchronous (TypeScript 7's
 * client blocks), so it runs when the host has nothing else to do: a short while after a build ended, or after a
 * dev server's last transform, unless another build or the host's end comes first.
 */

/** How long the host must stay idle before the session opens: long enough for a one-shot build's end to come first. */
export const IDLE_MS = 200;

export class SessionAhead {
  private timer: NodeJS.Timeout | undefined;
  /** Bumped by every `cancel`: an opening that began before one does not go on. */
  private turn = 0;

  /** `open` opens the session; `wanted()` says, after each of its awaits, whether it still should. */
  constructor(private readonly open: (wanted: () => boolean) => Promise<void>) {}

  /** The host is idle from now on (a build ended, a dev server answered): open after IDLE_MS unless told otherwise. */
  idle(): void {
    this.cancel();
    const turn = this.turn;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // A failure here (a tsconfig TypeScript 7 cannot open) is the next build's to report, when it reads a module.
      this.open(() => turn === this.turn).catch(() => undefined);
    }, IDLE_MS);
    // A process that has nothing else to do is not kept alive for this.
    this.timer.unref();
  }

  /** A build began, or the host ends: no opening now. */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.turn++;
  }
}
