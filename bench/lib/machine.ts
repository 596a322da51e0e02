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
