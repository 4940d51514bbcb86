import { closeSync, fdatasync, fstatSync, openSync, statSync } from 'node:fs';
import type { RegistryFlush } from './registry.ts';

/**
 * `fdatasync` of a file through a descriptor kept open between flushes, on libuv's thread pool: a
 * group flush costs one job on the pool, not an open, a flush and a close. A flush is of the file,
 * not of the descriptor, so it covers what any descriptor (SQLite's, the writer's) wrote.
 *
 * Before each flush the kept descriptor is checked to be of the file the path names now (the same
 * device and inode; an inode held open is never reused): a file deleted, renamed away or replaced
 * meanwhile is let go and the path opened again, so the flush is always of the file at the path,
 * as when it was opened for each flush. A path that names no file fails the flush (`ENOENT`), as
 * before. A descriptor no flush has used for `idleMs` is let go (so an idle server, or one whose
 * owner is gone, holds none), and {@link close} lets every one go once the flushes using it return.
 */
export class KeptFileFlush implements RegistryFlush {
  private readonly kept = new Map<string, number>();
  /** When each kept descriptor was last used for a flush (the monotonic clock, ms). */
  private readonly used = new Map<number, number>();
  private sweeper: NodeJS.Timeout | null = null;
  /** Flushes running on each descriptor. */
  private readonly inFlight = new Map<number, number>();
  /** Descriptors let go while a flush used them: closed once it returns. */
  private readonly retired = new Set<number>();
  private closed = false;

  constructor(private readonly idleMs = 1000) {}

  sync(path: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${path}: the flush was closed`));
    let fd: number;
    try {
      fd = this.descriptor(path);
    } catch (err) {
      return Promise.reject(err);
    }
    this.inFlight.set(fd, (this.inFlight.get(fd) ?? 0) + 1);
    this.used.set(fd, performance.now());
    this.sweepLater();
    return new Promise<void>((resolve, reject) => {
      fdatasync(fd, (err) => {
        const left = (this.inFlight.get(fd) ?? 1) - 1;
        if (left > 0) this.inFlight.set(fd, left);
        else {
          this.inFlight.delete(fd);
          if (this.retired.delete(fd)) closeSync(fd);
        }
        if (err) reject(err);
        else resolve();
      });
    });
  }

  /** Descriptors kept open now (tests read it). */
  get open(): number {
    return this.kept.size + this.retired.size;
  }

  /** Lets every kept descriptor go (those in use once their flush returns); later flushes fail. */
  close(): void {
    this.closed = true;
    for (const fd of this.kept.values()) this.retire(fd);
    this.kept.clear();
  }

  /** Lets go, at the next sweep, of descriptors idle for `idleMs`; the timer keeps no process alive. */
  private sweepLater(): void {
    if (this.sweeper) return;
    this.sweeper = setTimeout(() => {
      this.sweeper = null;
      const now = performance.now();
      for (const [path, fd] of this.kept) {
        if (now - (this.used.get(fd) ?? 0) < this.idleMs) continue;
        this.kept.delete(path);
        this.retire(fd);
      }
      if (this.kept.size > 0) this.sweepLater();
    }, this.idleMs);
    this.sweeper.unref();
  }

  private descriptor(path: string): number {
    const fd = this.kept.get(path);
    if (fd !== undefined) {
      const held = fstatSync(fd);
      const now = statSync(path, { throwIfNoEntry: false });
      if (now && now.ino === held.ino && now.dev === held.dev) return fd;
      this.kept.delete(path);
      this.retire(fd);
    }
    const opened = openSync(path, 'r');
    this.kept.set(path, opened);
    return opened;
  }

  private retire(fd: number): void {
    this.used.delete(fd);
    if (this.inFlight.has(fd)) this.retired.add(fd);
    else closeSync(fd);
  }
}
