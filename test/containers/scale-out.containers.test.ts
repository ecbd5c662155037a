/**
 * The scale-out scenarios (test/support/scale-out-suite.ts) on real services in containers: the
 * official ClickHouse server image, MinIO and Redis (Testcontainers). Needs a Docker engine, so it is
 * not part of `npm test`: run it with `npm run test:containers`.
 */
import { ClickHouseContainer } from '@testcontainers/clickhouse';
import { MinioContainer } from '@testcontainers/minio';
import { RedisContainer } from '@testcontainers/redis';
import { createBuckets } from '../support/s3.ts';
import { scaleOutSuite } from '../support/scale-out-suite.ts';

const BUCKET = 'sift';

scaleOutSuite(async () => {
  const [clickhouse, minio, redis] = await Promise.all([
    new ClickHouseContainer('clickhouse/clickhouse-server:26.8').start(),
    new MinioContainer('minio/minio:latest').start(),
    new RedisContainer('redis:7').withCommand(['redis-server', '--maxmemory-policy', 'noeviction']).start(),
  ]);
  const s3 = {
    endpoint: minio.getConnectionUrl(),
    bucket: BUCKET,
    region: 'us-east-1',
    prefix: '',
    accessKeyId: minio.getUsername(),
    secretAccessKey: minio.getPassword(),
    forcePathStyle: true,
  };
  await createBuckets(s3, [BUCKET]);
  return {
    clickhouse: {
      url: clickhouse.getHttpUrl(),
      user: clickhouse.getUsername(),
      password: clickhouse.getPassword(),
    },
    s3,
    redisUrl: redis.getConnectionUrl(),
    async stop() {
      await Promise.all([clickhouse.stop(), minio.stop(), redis.stop()]);
    },
  };
});
