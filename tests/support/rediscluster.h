#pragma once

#include "redisserver.h"

#include <memory>
#include <vector>

namespace LockScope::Test {

// A real Redis Cluster on loopback for one test: masters with replicas, each a RedisServer child on ephemeral
// ports (bus ports too), joined with redis-cli --cluster create and waited for until every slot is served.
class RedisCluster
{
public:
    RedisCluster(int masters = 3, int replicasPerMaster = 1);
    ~RedisCluster();

    bool start(QString *error);
    int size() const { return int(m_nodes.size()); }
    RedisServer &node(int i) { return *m_nodes.at(size_t(i)); }
    QList<quint16> ports() const;
    // redis://127.0.0.1:<first node> : any node is a way in.
    QString url() const;

private:
    int m_masters;
    int m_replicas;
    std::vector<std::unique_ptr<RedisServer>> m_nodes;
};

} // namespace LockScope::Test
