/** The machine a report was measured on, named in every report (figures mean little without it). */
import os from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started and when it ended: above the core count, figures suffer. */
  loadAverageAtStart: number;
  loadAverageAtEnd?: number;
  chromium?: string;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverageAtStart: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
  };
}

export function loadAverage(): number {
  return Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
}

function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

const QUIET_IDLE_SHARE = 0.85;
const QUIET_WINDOW_MS = 1000;

/**
 * Waits until the machine is quiet, two one-second windows in a row with at least 85% of the CPU
 * idle, for at most maxMs; returns how long it waited. Timed figures taken while PostgreSQL still
 * vacuums after the API load, or a previous step's processes wind down, measure the machine rather
 * than the portal (Lighthouse's simulated timings scale with it too).
 */
export async function waitForQuietCpu(maxMs = 60_000): Promise<number> {
  const started = Date.now();
  let quietWindows = 0;
  while (quietWindows < 2 && Date.now() - started < maxMs) {
    const before = cpuTimes();
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    const after = cpuTimes();
    const idleShare = (after.idle - before.idle) / Math.max(1, after.total - before.total);
    quietWindows = idleShare >= QUIET_IDLE_SHARE ? quietWindows + 1 : 0;
  }
  return Date.now() - started;
}
