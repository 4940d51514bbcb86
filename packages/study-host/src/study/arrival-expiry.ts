import type { StudyRegistry } from '@usher/study';

/** How often the server looks for arrivals to remove, besides once at start. */
export const EXPIRY_EVERY_MS = 60 * 60_000;

/**
 * Removes from the registry the study's arrivals still at consent `retentionMs` after they opened
 * the study link (RelayLimits.arrivalRetentionMs), once at start and then every
 * {@link EXPIRY_EVERY_MS}; the registry keeps their count per condition, which the export reports
 * (`expired_arrivals`). Anyone may open the link (`admissionsPerMinute` per address), so these rows
 * would otherwise grow without bound. Age is read on the study's clock, `now`.
 */
export class ArrivalExpiry {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly registry: Pick<StudyRegistry, 'expireArrivals'>,
    private readonly studyId: string,
    private readonly retentionMs: number,
    private readonly now: () => Date,
    private readonly warn: (line: string) => void,
  ) {}

  /** Removes what has expired now; returns how many were removed (a registry that fails is reported, and tried again next time). */
  run(): number {
    try {
      const removed = this.registry.expireArrivals(this.studyId, new Date(this.now().getTime() - this.retentionMs));
      if (removed > 0) {
        this.warn(
          `study: removed ${removed} arrivals who had not consented ${this.retentionMs / 60_000} minutes after opening the study link (arrivalRetentionMs); the registry counts them (expired_arrivals)`,
        );
      }
      return removed;
    } catch (err) {
      this.warn(`study: arrivals who never consented could not be removed: ${(err as Error).message}`);
      return 0;
    }
  }

  /** Runs now, then every {@link EXPIRY_EVERY_MS} until {@link stop}. */
  start(): void {
    this.run();
    this.timer = setInterval(() => this.run(), EXPIRY_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
