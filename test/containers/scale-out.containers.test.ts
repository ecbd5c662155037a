/**
 * The scale-out scenarios (test/support/scale-out-suite.ts) on real services in containers: the
 * official ClickHouse server image, MinIO and Redis (Testcontainers). Needs a Docker engine, so it is
 * not part of `npm test`: run it with `npm run test:containers`.
 */
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { ClickHouseContainer } from '@testcontainers/clickhouse';
import { MinioContainer } from '@testcontainers/minio';
import { RedisContainer } from '@testcontainers/redis';
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
  const admin = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
  admin.destroy();
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
