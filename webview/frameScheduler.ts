/**
 * Runs one callback at most once per animation frame, however often `schedule()` is called: all patches that
 * arrived since the last frame are rendered together.
 */
export class FrameScheduler {
  private handle = 0;

  constructor(private readonly callback: () => void) {}

  schedule(): void {
    if (this.handle !== 0) {
      return;
    }
    this.handle = requestAnimationFrame(() => {
      this.handle = 0;
      this.callback();
    });
  }

  dispose(): void {
    if (this.handle !== 0) {
      cancelAnimationFrame(this.handle);
    }
    this.handle = 0;
  }
}
