#include "redis/redisrouter.h"

#include <QPointer>
#include <QSet>

// How the router learns what it talks to and keeps the cluster's slot map current: the first probe, the map read
// from CLUSTER SHARDS or SLOTS, and the refreshes after MOVED, a node failure, or on a timer.
namespace LockScope {

namespace {
QString address(const QString &host, quint16 port)
{
    return host + QLatin1Char(':') + QString::number(port);
}
} // namespace

QString RedisRouter::describe() const
{
    switch (m_mode) {
    case Mode::Probing:
        return tr("connecting to %1").arg(address(m_options.host, m_options.port));
    case Mode::Standalone:
        if (m_options.usesSentinel())
            return tr("Sentinel master \"%1\" at %2")
                .arg(QString::fromUtf8(m_options.sentinelMaster),
                    address(m_seed->options().host, m_seed->options().port));
        return tr("standalone %1").arg(address(m_options.host, m_options.port));
    case Mode::Cluster: {
        int replicas = 0;
        QSet<QString> seen;
        for (const SlotMap::Range &r : m_map.ranges())
            if (!seen.contains(address(r.master.host, r.master.port))) {
                seen.insert(address(r.master.host, r.master.port));
                replicas += int(r.replicas.size());
            }
        return tr("cluster: %n master(s), ", nullptr, int(seen.size())) + tr("%n replica(s), ", nullptr, replicas)
            + tr("%1/16384 slots covered").arg(m_map.coveredSlots());
    }
    }
    return {};
}

void RedisRouter::probe()
{
    if (m_probing || m_mode != Mode::Probing)
        return;
    m_probing = true;
    if (m_options.topology == ConnectionOptions::Topology::Cluster) {
        probeShards(false);
        return;
    }
    // INFO's cluster section says it with the least privilege (a monitor's ACL allows INFO, maybe not CLUSTER).
    QPointer<RedisRouter> self(this);
    m_seed->command({ "INFO", "cluster" }, [self](const RedisResult &r) {
        if (!self)
            return;
        if (r.error.kind() == RedisError::Kind::Io || r.error.kind() == RedisError::Kind::Timeout
            || r.error.kind() == RedisError::Kind::Auth) {
            self->m_probing = false;
            // A probe that never reached the server timed out because connecting failed: say why connecting failed
            // ("connection refused", "authentication failed"), which is what a person can act on.
            const RedisError seedError = self->m_seed->lastError();
            const bool neverConnected = r.error.kind() == RedisError::Kind::Timeout
                && self->m_seed->state() != RedisConnection::State::Ready
                && (seedError.kind() == RedisError::Kind::Io || seedError.kind() == RedisError::Kind::Auth);
            const RedisError error = neverConnected ? seedError : r.error;
            self->failWaiting(error);
            emit self->disconnected(error);
            return;
        }
        if (r.ok() && r.value.bytes().contains("cluster_enabled:1"))
            self->probeShards(false);
        else if (r.ok())
            self->decide(Mode::Standalone);
        else
            self->probeShards(true); // INFO denied: CLUSTER SHARDS may still answer
    });
}

void RedisRouter::probeShards(bool fallbackToStandalone)
{
    QPointer<RedisRouter> self(this);
    m_seed->command({ "CLUSTER", "SHARDS" }, [self, fallbackToStandalone](const RedisResult &r) {
        if (!self)
            return;
        SlotMap map;
        if (r.ok())
            map = SlotMap::fromShards(r.value);
        if (!map.isEmpty()) {
            self->decide(Mode::Cluster, map);
            return;
        }
        // Redis 6 has no CLUSTER SHARDS.
        self->m_seed->command({ "CLUSTER", "SLOTS" }, [self, fallbackToStandalone](const RedisResult &slotsReply) {
            if (!self)
                return;
            SlotMap map;
            if (slotsReply.ok())
                map = SlotMap::fromSlots(slotsReply.value);
            if (!map.isEmpty()) {
                self->decide(Mode::Cluster, map);
            } else if (fallbackToStandalone || slotsReply.value.bytes().contains("cluster support disabled")) {
                self->decide(Mode::Standalone);
            } else {
                self->m_probing = false;
                const RedisError error = slotsReply.ok()
                    ? RedisError(RedisError::Kind::Protocol, tr("the cluster reported no slots"))
                    : slotsReply.error;
                self->failWaiting(error);
                emit self->disconnected(error);
            }
        });
    });
}

void RedisRouter::decide(Mode mode, const SlotMap &map)
{
    m_probing = false;
    m_mode = mode;
    if (mode == Mode::Cluster) {
        applyMap(map);
        m_periodicRefresh.start();
    }
    emit modeDecided(mode);
    replayWaiting();
    if (mode == Mode::Cluster)
        emit ready();
    else if (m_seed->isReady())
        emit ready();
}

void RedisRouter::applyMap(const SlotMap &map)
{
    QSet<QString> masters;
    for (const ClusterNode &n : map.masters())
        masters.insert(address(n.host, n.port));
    // A node that stopped being a master (failed over, removed) answers MOVED at best: close it.
    for (auto it = m_nodes.begin(); it != m_nodes.end();) {
        if (!masters.contains(it.key())) {
            it.value()->close();
            it.value()->deleteLater();
            it = m_nodes.erase(it);
        } else {
            ++it;
        }
    }
    bool changed = map.ranges().size() != m_map.ranges().size();
    for (int i = 0; !changed && i < map.ranges().size(); ++i) {
        const SlotMap::Range &a = map.ranges().at(i);
        const SlotMap::Range &b = m_map.ranges().at(i);
        changed = a.first != b.first || a.last != b.last || !(a.master == b.master) || a.replicas != b.replicas;
    }
    m_map = map;
    m_moved.clear();
    m_slotNodes.fill(nullptr);
    m_slotReplicas.fill(nullptr);
    QSet<QString> replicasUsed;
    for (const SlotMap::Range &r : m_map.ranges()) {
        RedisConnection *c = node(r.master.host, r.master.port);
        RedisConnection *reads = nullptr;
        if (m_options.replicaReads && !r.replicas.isEmpty()) {
            reads = replica(r.replicas.first().host, r.replicas.first().port);
            replicasUsed.insert(address(r.replicas.first().host, r.replicas.first().port));
        }
        for (int slot = r.first; slot <= r.last; ++slot) {
            m_slotNodes[size_t(slot)] = c;
            m_slotReplicas[size_t(slot)] = reads;
        }
    }
    for (auto it = m_replicas.begin(); it != m_replicas.end();) {
        if (!replicasUsed.contains(it.key())) {
            it.value()->close();
            it.value()->deleteLater();
            it = m_replicas.erase(it);
        } else {
            ++it;
        }
    }
    if (changed) {
        ++m_epoch;
        emit topologyChanged();
    }
}

void RedisRouter::refreshTopology(std::function<void()> then)
{
    if (m_mode != Mode::Cluster) {
        if (then)
            then();
        return;
    }
    if (then)
        m_afterRefresh << std::move(then);
    if (m_refreshing) {
        m_refreshAgain = true;
        return;
    }
    // Any master that is up knows the map; the seed too unless it is the node that went away.
    QList<QPointer<RedisConnection>> candidates;
    for (RedisConnection *c : std::as_const(m_nodes))
        if (c->isReady())
            candidates << c;
    candidates << m_seed;
    m_refreshing = true;
    refreshFrom(candidates, 0);
}

void RedisRouter::refreshFrom(const QList<QPointer<RedisConnection>> &candidates, int i)
{
    while (i < candidates.size() && !candidates.at(i))
        ++i;
    if (i >= candidates.size()) {
        finishRefresh(nullptr);
        return;
    }
    QPointer<RedisRouter> self(this);
    RedisConnection *c = candidates.at(i);
    c->command({ "CLUSTER", "SHARDS" }, [self, candidates, i](const RedisResult &r) {
        if (!self)
            return;
        const SlotMap map = r.ok() ? SlotMap::fromShards(r.value) : SlotMap {};
        if (!map.isEmpty()) {
            self->finishRefresh(&map);
            return;
        }
        RedisConnection *c = candidates.at(i);
        if (!c) {
            self->refreshFrom(candidates, i + 1);
            return;
        }
        // Redis 6 has no CLUSTER SHARDS.
        c->command({ "CLUSTER", "SLOTS" }, [self, candidates, i](const RedisResult &slotsReply) {
            if (!self)
                return;
            const SlotMap map = slotsReply.ok() ? SlotMap::fromSlots(slotsReply.value) : SlotMap {};
            if (!map.isEmpty())
                self->finishRefresh(&map);
            else
                self->refreshFrom(candidates, i + 1);
        });
    });
}

void RedisRouter::finishRefresh(const SlotMap *map)
{
    m_refreshing = false;
    QPointer<RedisRouter> self(this);
    if (map) {
        applyMap(*map);
        // Until every slot has a reachable master again, keep looking.
        bool allUp = map->coveredSlots() == 16384;
        for (RedisConnection *n : masterConnections())
            allUp = allUp && n->state() != RedisConnection::State::Closed;
        if (allUp)
            m_refreshTimer.stop();
    }
    if (std::exchange(m_refreshAgain, false)) {
        refreshTopology();
        return;
    }
    for (const auto &then : std::exchange(m_afterRefresh, {})) {
        then();
        if (!self)
            return;
    }
}

void RedisRouter::onNodeDown(const RedisError &error)
{
    emit disconnected(error);
    // A failover takes the cluster a few seconds: look again until a replica has taken over.
    if (!m_refreshTimer.isActive())
        m_refreshTimer.start();
    refreshTopology();
}

} // namespace LockScope
