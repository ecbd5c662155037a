/**
 * The scale-out scenarios (test/support/scale-out-suite.ts) on this machine's stand-ins: the
 * test-only ClickHouse server from chDB, s3rver and the local Redis.
 */
import { startTestClickHouse } from './support/clickhouse-server.ts';
import { startTestS3 } from './support/s3.ts';
import { scaleOutSuite } from './support/scale-out-suite.ts';

scaleOutSuite(async () => {
  const [clickhouse, s3] = await Promise.all([startTestClickHouse(), startTestS3('scale-out')]);
  return {
    clickhouse: { url: clickhouse.url, user: 'default', password: '' },
    s3: s3.options,
    redisUrl: 'redis://127.0.0.1:6379',
    async stop() {
      await s3.stop();
      await clickhouse.stop();
    },
  };
});
