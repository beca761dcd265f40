#pragma once

#include "redisserver.h"

#include <memory>
#include <vector>

namespace LockScope::Test {

// A real Sentinel deployment on loopback for one test: a master, a replica and three sentinels watching it under
// the name "lockscope" (quorum 2, down after 1 s), each a RedisServer child on ephemeral ports.
class RedisSentinelSet
{
public:
    RedisSentinelSet();
    ~RedisSentinelSet();

    bool start(QString *error);
    QByteArray masterName() const { return "lockscope"; }
    RedisServer &master() { return *m_master; }
    RedisServer &replica() { return *m_replica; }
    RedisServer &sentinel(int i) { return *m_sentinels.at(size_t(i)); }
    // "127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3", as --sentinel takes it.
    QString sentinelList() const;
    // The master's port as the sentinels see it now (0 when none answers).
    quint16 currentMasterPort();

private:
    std::unique_ptr<RedisServer> m_master;
    std::unique_ptr<RedisServer> m_replica;
    std::vector<std::unique_ptr<RedisServer>> m_sentinels;
};

} // namespace LockScope::Test
