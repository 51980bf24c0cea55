import { Engine } from '../src/index.js';
import { syntheticModel } from './support/syntheticModel.js';
for (let r = 0; r < 3; r++) {
  const engine = new Engine(syntheticModel(2_000_000), {
    seed: 1,
    start: 0,
    config: {},
    snapshotEvery: Number(process.argv[2] ?? 20000),
  });
  engine.execute({ type: 'Start', jobs: 10_000 });
  const t = process.hrtime.bigint();
  engine.advanceTo(Number.MAX_SAFE_INTEGER);
  console.log((2e6 / (Number(process.hrtime.bigint() - t) / 1e9) / 1e6).toFixed(2), 'M/s');
}
