import { describe } from 'vitest';
import { RedisTurnLock } from '../../server/redis/lock.ts';
import { KeyedMutex } from '../../server/store/turn-lock.ts';
import { useTestRedis } from '../support/redis.ts';
import { turnLockContract } from '../../server/testing/turn-lock.contract.ts';

turnLockContract('KeyedMutex', async () => {
  const lock = new KeyedMutex();
  return { lock, other: lock };
});

// the Redis suite in its own block, so without redis-server only it skips
describe('on Redis', () => {
  const redis = useTestRedis();

  turnLockContract('RedisTurnLock (two instances on one Redis)', async () => {
    const prefix = `lc${Math.random().toString(36).slice(2, 8)}:`;
    return { lock: new RedisTurnLock(redis.client(), { prefix }), other: new RedisTurnLock(redis.client(), { prefix }) };
  });
});
