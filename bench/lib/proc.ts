import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface ProcMemory {
  /** Resident set size now (VmRSS), KiB. */
  rssKiB: number;
  /** Peak resident set size over the process's life (VmHWM), KiB. */
  peakKiB: number;
}

/** Reads a (child) process's memory from Linux's /proc/<pid>/status. */
export function procMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status);
    if (!match) throw new Error(`no ${name} in /proc/${pid}/status`);
    return Number(match[1]);
  };
  return { rssKiB: field('VmRSS'), peakKiB: field('VmHWM') };
}

/** Total size in bytes of the files directly in `dir` (the study logs). */
export function dirBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) total += statSync(join(dir, name)).size;
  return total;
}

/** Linux reports process times in /proc in units of USER_HZ, which is 100 on every architecture. */
const USER_HZ = 100;

/** CPU time (user + system) a process has used so far, in seconds, from /proc/<pid>/stat. */
export function procCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may contain spaces: utime is the 12th, stime the 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}
