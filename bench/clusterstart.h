#pragma once

#include "monitorraw.h"
#include "redis/connectionoptions.h"
#include "redis/slotmap.h"

#include <QList>
#include <QString>

#include <memory>
#include <vector>

namespace LockScope {
class LocalRedisServer;
}

namespace LockScope::Bench {

// The Redis Cluster bench_cluster measures: the one --cluster-url names (any node is a way in), or a private one
// of `masters` masters without replicas, each a redis-server child on ephemeral loopback ports (bus ports too),
// joined with redis-cli --cluster create and waited for until every node serves all 16384 slots.
class BenchCluster
{
public:
    BenchCluster();
    ~BenchCluster();
    BenchCluster(const BenchCluster &) = delete;
    BenchCluster &operator=(const BenchCluster &) = delete;

    bool open(const QString &seedUrl, int masters, QString *error);
    // The seed node: what the monitor is given, as a user would give it.
    const ConnectionOptions &options() const { return m_options; }
    QString url() const { return m_url; } // the seed node's, for a process of its own (lockscope-cli)
    bool isPrivate() const { return !m_nodes.empty(); }
    const SlotMap &slotMap() const { return m_map; }
    QList<ConnectionOptions> masterOptions() const;

private:
    bool startPrivate(int masters, QString *error);
    bool waitUntilServed(const QList<quint16> &ports, QString *error);
    bool readSlotMap(QString *error);

    std::vector<std::unique_ptr<LocalRedisServer>> m_nodes;
    ConnectionOptions m_options;
    QString m_url;
    SlotMap m_map;
};

// One raw pipe per master, in slotMap().masters() order, each command sent to the master that owns its key.
class ClusterPipes
{
public:
    bool connect(const BenchCluster &cluster, QString *error);
    int size() const { return int(m_pipes.size()); }
    RawPipe &at(int i) { return *m_pipes.at(size_t(i)); }
    // The index of the master that owns the key's slot.
    int indexForKey(const QByteArray &key) const;

private:
    SlotMap m_map;
    std::vector<std::unique_ptr<RawPipe>> m_pipes;
    QList<ClusterNode> m_masters;
    std::vector<int> m_slotOwner; // slot -> index into m_pipes
};

// Keys of a database (DBSIZE); -1 with *error set when it cannot be read.
qint64 databaseSize(RawPipe &pipe, QString *error);

// Every key of `from` (its whole database) into the cluster, each RESTOREd on its own master with the TTL it has
// left, in pipelined chunks: the cluster then holds byte for byte what bench_monitor's loader put on the single
// server, whatever that loader seeds. Returns the number of keys copied, -1 on error.
qint64 copyKeyspace(RawPipe &from, ClusterPipes &to, int chunkCommands, QString *error);

// The cluster's removeSeeded(): one UNLINK per key, as a multi-key UNLINK across slots is refused (CROSSSLOT).
qint64 removeSeededFromCluster(ClusterPipes &pipes, QString *error);

} // namespace LockScope::Bench
