import { rmSync } from 'node:fs';
import { loadStudyFile } from '@usher/study';
import { exportStudy } from './export.ts';

const DEMO = loadStudyFile('studies/demo.study.yaml');
const dir = '/tmp/exp-scratch/big';
rmSync(`${dir}/out`, { recursive: true, force: true });
const t = Date.now();
await exportStudy({
  study: DEMO,
  logsDir: `${dir}/logs`,
  registryPath: `${dir}/registry.sqlite`,
  outDir: `${dir}/out`,
});
process.stderr.write(`export ${Date.now() - t}\n`);
