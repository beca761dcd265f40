#pragma once

#include "redis/redisconnection.h"
#include "redis/slotmap.h"

#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QTimer>

#include <array>
#include <optional>

namespace LockScope {

// The connection a lock client or monitor talks to, whatever the deployment: one server (or the master Sentinel
// names), or a Redis Cluster whose slot map it reads (CLUSTER SHARDS, or CLUSTER SLOTS before Redis 7). In a
// cluster every command goes to the master serving its key's slot; MOVED and ASK are followed, TRYAGAIN and
// CLUSTERDOWN retried until the command's deadline, and the map is read again when the topology changes.
// With Topology::Auto the first server says whether it is part of a cluster (INFO cluster).
class RedisRouter : public RedisCommander
{
    Q_OBJECT
public:
    enum class Mode { Probing, Standalone, Cluster };
    Q_ENUM(Mode)

    explicit RedisRouter(ConnectionOptions options, QObject *parent = nullptr);
    ~RedisRouter() override;

    // Outside a cluster, the one connection's: with Sentinel, host and port say where the master is now.
    const ConnectionOptions &options() const override;
    bool isReady() const override;
    int retryDelayMs() const override;
    int pendingCount() const override;
    void open() override;
    void command(QList<QByteArray> argv, Callback callback = {}) override;
    void eval(const RedisScript &script, const QList<QByteArray> &keys, const QList<QByteArray> &args,
        Callback callback) override;
    // Standalone: the server's connection batches them. A cluster: one batch per master, a redirected command sent
    // again through command(), which follows it. Probing, or reads from replicas: each command on its own, routed.
    void commandBatch(const QList<QList<QByteArray>> &commands, BatchCallback callback) override;
    void commandEach(const QList<QByteArray> &head, const QList<QByteArray> &keys, const QList<QByteArray> &tail,
        BatchCallback callback) override;
    void commandDeferred(const QList<QByteArray> &argv) override;
    void flushDeferred() override;
    void cork() override;
    void uncork() override;
    qint64 nowMs() const override { return m_clock.elapsed(); }

    bool routesBySlot() const override { return m_mode == Mode::Cluster; }
    Mode mode() const { return m_mode; }
    bool isCluster() const { return m_mode == Mode::Cluster; }
    const SlotMap &slotMap() const { return m_map; }
    // Bumped whenever the slot map changes: a scan that saw it change may have missed keys that moved.
    quint64 topologyEpoch() const { return m_epoch; }
    // The connections whose keys are the whole data set: every master of a cluster, or the one server. SCAN,
    // INFO, CONFIG GET and keyspace notifications are per node.
    QList<RedisConnection *> masterConnections();
    // Where full scans run: the masters, or with replicaReads each master's replica where it has one.
    QList<RedisConnection *> scanConnections();
    // With replicaReads: how far behind the replicas read from are. worstLagSeconds is the largest
    // master_last_io_seconds_ago (-1 when a replica's link to its master is down); detail names each replica.
    void readReplicaLag(std::function<void(int worstLagSeconds, const QString &detail)> done);
    // The connection that serves a key (the one server outside a cluster).
    RedisConnection *connectionForKey(const QByteArray &key) override;
    // The first master (or the one server): for commands about no key.
    RedisConnection *primary();
    // The settings of a node (credentials, TLS) at the given address.
    ConnectionOptions nodeOptions(const QString &host, quint16 port) const { return m_options.forNode(host, port); }
    // Reads the slot map again now (a node failed, a shard channel moved); then runs once it has been read (or
    // could not be), right away outside a cluster.
    void refreshTopology(std::function<void()> then = {});
    // For people: "standalone 127.0.0.1:6379" or "cluster: 3 masters, 3 replicas, 16384/16384 slots".
    QString describe() const;

    // The key a command is routed by: none for PING, INFO, SCAN, CONFIG, ...; EVAL's first key; PUBSUB
    // NUMSUB / SHARDNUMSUB's channel.
    static std::optional<QByteArray> routingKey(const QList<QByteArray> &argv);

signals:
    void modeDecided(LockScope::RedisRouter::Mode mode);
    void topologyChanged();

private:
    struct Redirect
    {
        quint16 slot = 0;
        QString host;
        quint16 port = 0;
        bool ask = false;
    };
    static std::optional<Redirect> parseRedirect(const RedisValue &reply);
    static bool retryLater(const RedisValue &reply);

    void probe();
    void probeShards(bool fallbackToStandalone);
    void decide(Mode mode, const SlotMap &map = {});
    void applyMap(const SlotMap &map);
    void replayWaiting();
    void failWaiting(const RedisError &error);
    RedisConnection *node(const QString &host, quint16 port);
    RedisConnection *nodeForSlot(quint16 slot, RedisError *error);
    RedisConnection *replica(const QString &host, quint16 port);
    // A command or a script on its way: what it takes to send it again after MOVED, ASK or TRYAGAIN.
    struct Routed
    {
        QList<QByteArray> argv; // a command, or a script's keys
        const RedisScript *script = nullptr; // scripts are static objects (LockScripts): the pointer outlives replies
        QList<QByteArray> args;
        Callback callback;
        qint64 deadline = 0; // 0: none
        int redirects = 0;
    };
    RedisConnection *routeOf(const Routed &routed, RedisError *error);
    void dispatch(Routed routed);
    bool mayRetry(const Routed &routed) const;
    void send(RedisConnection *target, const Routed &routed, bool asking);
    void handleReply(Routed routed, const RedisResult &reply);
    void onNodeDown(const RedisError &error);
    void refreshFrom(const QList<QPointer<RedisConnection>> &candidates, int i);
    void finishRefresh(const SlotMap *map); // nullptr: no node answered
    void later(Callback callback, const RedisError &error);
    qint64 deadlineFromNow() const;
    bool mayFollow(int redirects, qint64 deadline) const;

    ConnectionOptions m_options;
    Mode m_mode = Mode::Probing;
    bool m_probing = false;
    RedisConnection *m_seed = nullptr; // the server named by the options: the one server, or the cluster's way in
    QHash<QString, RedisConnection *> m_nodes; // "host:port" -> a cluster master's connection
    SlotMap m_map;
    QHash<quint16, QString> m_moved; // slots a MOVED reply re-assigned since the map was read
    // Each slot's master connection, built from the map: the hot path looks up one pointer, not a QString key.
    std::array<RedisConnection *, 16384> m_slotNodes {};
    // With replicaReads: each slot's replica connection (nullptr: read from the master).
    std::array<RedisConnection *, 16384> m_slotReplicas {};
    QHash<QString, RedisConnection *> m_replicas;
    quint64 m_epoch = 0;
    QList<Routed> m_waiting; // commands sent before the mode was known
    int m_corked = 0;
    bool m_refreshing = false;
    QList<std::function<void()>> m_afterRefresh;
    bool m_refreshAgain = false;
    QTimer m_refreshTimer; // while a node is down: read the map until a replica has taken over
    QTimer m_periodicRefresh;
    QElapsedTimer m_clock;
};

} // namespace LockScope
