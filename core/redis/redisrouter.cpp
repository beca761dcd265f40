#include "redisrouter.h"

#include "redisconnection.h"
#include "redisscript.h"

#include <QPointer>
#include <QSet>

namespace LockScope {

namespace {
constexpr int kMaxRedirects = 8;
constexpr int kRetryDelayMs = 100; // TRYAGAIN (a multi-key command during a migration), CLUSTERDOWN

QString address(const QString &host, quint16 port)
{
    return host + QLatin1Char(':') + QString::number(port);
}
} // namespace

RedisRouter::RedisRouter(ConnectionOptions options, QObject *parent)
    : RedisCommander(parent)
    , m_options(std::move(options))
{
    m_clock.start();
    m_refreshTimer.setInterval(500);
    connect(&m_refreshTimer, &QTimer::timeout, this, [this] { refreshTopology(); });
    // Resharding and failovers that no command of ours ran into still show up in the topology people see.
    m_periodicRefresh.setInterval(10000);
    connect(&m_periodicRefresh, &QTimer::timeout, this, [this] { refreshTopology(); });
    m_seed = new RedisConnection(m_options, this);
    connect(m_seed, &RedisConnection::ready, this, [this] {
        if (m_mode == Mode::Standalone)
            emit ready();
    });
    connect(m_seed, &RedisConnection::disconnected, this, [this](const RedisError &error) {
        if (m_mode == Mode::Standalone)
            emit disconnected(error);
    });
    if (m_options.usesSentinel() || m_options.topology == ConnectionOptions::Topology::Standalone)
        decide(Mode::Standalone);
}

RedisRouter::~RedisRouter() = default;

const ConnectionOptions &RedisRouter::options() const
{
    return m_mode == Mode::Standalone ? m_seed->options() : m_options;
}

bool RedisRouter::isReady() const
{
    switch (m_mode) {
    case Mode::Probing:
        return false;
    case Mode::Standalone:
        return m_seed->isReady();
    case Mode::Cluster:
        return !m_map.isEmpty();
    }
    return false;
}

int RedisRouter::pendingCount() const
{
    int n = m_seed->pendingCount() + int(m_waiting.size());
    for (const RedisConnection *c : m_nodes)
        n += c->pendingCount();
    return n;
}

void RedisRouter::open()
{
    if (m_mode == Mode::Probing)
        probe();
    else
        m_seed->open();
}

QList<RedisConnection *> RedisRouter::masterConnections()
{
    if (m_mode != Mode::Cluster)
        return { m_seed };
    QList<RedisConnection *> list;
    for (const ClusterNode &n : m_map.masters())
        list << node(n.host, n.port);
    return list;
}

RedisConnection *RedisRouter::connectionForKey(const QByteArray &key)
{
    if (m_mode != Mode::Cluster)
        return m_seed;
    RedisError ignored;
    RedisConnection *c = nodeForSlot(keySlot(key), &ignored);
    return c ? c : primary();
}

RedisConnection *RedisRouter::primary()
{
    if (m_mode != Mode::Cluster || m_map.isEmpty())
        return m_seed;
    const ClusterNode first = m_map.masters().constFirst();
    return node(first.host, first.port);
}

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
            self->failWaiting(r.error);
            emit self->disconnected(r.error);
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
    for (const SlotMap::Range &r : m_map.ranges()) {
        RedisConnection *c = node(r.master.host, r.master.port);
        for (int slot = r.first; slot <= r.last; ++slot)
            m_slotNodes[size_t(slot)] = c;
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
    QList<RedisConnection *> candidates;
    for (RedisConnection *c : std::as_const(m_nodes))
        if (c->isReady())
            candidates << c;
    candidates << m_seed;
    m_refreshing = true;
    QPointer<RedisRouter> self(this);
    auto attempt = std::make_shared<std::function<void(int)>>();
    *attempt = [self, candidates, attempt](int i) {
        if (!self)
            return;
        if (i >= candidates.size()) {
            self->m_refreshing = false;
            for (const auto &then : std::exchange(self->m_afterRefresh, {}))
                then();
            if (self)
                *attempt = nullptr; // breaks the cycle through the captured pointer
            return;
        }
        QPointer<RedisConnection> c(candidates.at(i));
        if (!c) {
            (*attempt)(i + 1);
            return;
        }
        c->command({ "CLUSTER", "SHARDS" }, [self, c, i, attempt](const RedisResult &r) {
            if (!self)
                return;
            auto finish = [self, attempt](const SlotMap &map) {
                self->m_refreshing = false;
                self->applyMap(map);
                // Until every slot has a reachable master again, keep looking.
                bool allUp = map.coveredSlots() == 16384;
                for (RedisConnection *n : self->masterConnections())
                    allUp = allUp && n->state() != RedisConnection::State::Closed;
                if (allUp)
                    self->m_refreshTimer.stop();
                const bool again = std::exchange(self->m_refreshAgain, false);
                if (!again)
                    for (const auto &then : std::exchange(self->m_afterRefresh, {}))
                        then();
                *attempt = nullptr;
                if (again && self)
                    self->refreshTopology();
            };
            const SlotMap map = r.ok() ? SlotMap::fromShards(r.value) : SlotMap {};
            if (!map.isEmpty()) {
                finish(map);
                return;
            }
            if (!c) {
                (*attempt)(i + 1);
                return;
            }
            c->command({ "CLUSTER", "SLOTS" }, [self, i, attempt, finish](const RedisResult &slotsReply) {
                if (!self)
                    return;
                const SlotMap map = slotsReply.ok() ? SlotMap::fromSlots(slotsReply.value) : SlotMap {};
                if (!map.isEmpty())
                    finish(map);
                else
                    (*attempt)(i + 1);
            });
        });
    };
    (*attempt)(0);
}

void RedisRouter::onNodeDown(const RedisError &error)
{
    emit disconnected(error);
    // A failover takes the cluster a few seconds: look again until a replica has taken over.
    if (!m_refreshTimer.isActive())
        m_refreshTimer.start();
    refreshTopology();
}

RedisConnection *RedisRouter::node(const QString &host, quint16 port)
{
    const QString key = address(host, port);
    RedisConnection *&c = m_nodes[key];
    if (!c) {
        c = new RedisConnection(m_options.forNode(host, port), this);
        for (int i = 0; i < m_corked; ++i)
            c->cork();
        connect(c, &RedisConnection::disconnected, this, &RedisRouter::onNodeDown);
        c->open();
    }
    return c;
}

RedisConnection *RedisRouter::nodeForSlot(quint16 slot, RedisError *error)
{
    if (RedisConnection *c = m_slotNodes[slot % 16384])
        return c;
    const auto moved = m_moved.constFind(slot);
    if (moved != m_moved.cend()) {
        const int colon = moved->lastIndexOf(QLatin1Char(':'));
        return node(moved->left(colon), quint16(moved->mid(colon + 1).toUInt()));
    }
    const ClusterNode master = m_map.masterFor(slot);
    if (master.port == 0) {
        *error = RedisError(RedisError::Kind::Reply,
            tr("CLUSTERDOWN no master serves slot %1 (a failover may be under way)").arg(slot));
        return nullptr;
    }
    return node(master.host, master.port);
}

std::optional<QByteArray> RedisRouter::routingKey(const QList<QByteArray> &argv)
{
    if (argv.size() < 2)
        return std::nullopt;
    // Our own commands are upper case already: no copy on the hot path.
    const QByteArray &given = argv.first();
    const bool upper = std::none_of(given.cbegin(), given.cend(), [](char c) { return c >= 'a' && c <= 'z'; });
    const QByteArray name = upper ? given : given.toUpper();
    if (name == "EVAL" || name == "EVALSHA" || name == "EVAL_RO" || name == "EVALSHA_RO" || name == "FCALL") {
        if (argv.size() > 3 && argv.at(2).toInt() > 0)
            return argv.at(3);
        return std::nullopt;
    }
    if (name == "PUBSUB") {
        const QByteArray sub = argv.at(1).toUpper();
        if ((sub == "NUMSUB" || sub == "SHARDNUMSUB") && argv.size() > 2)
            return argv.at(2);
        return std::nullopt;
    }
    static const QSet<QByteArray> keyless { "PING", "INFO", "SCAN", "CONFIG", "CLUSTER", "SCRIPT", "TIME", "ACL",
        "CLIENT", "DBSIZE", "ECHO", "SELECT", "AUTH", "HELLO", "COMMAND", "SLOWLOG", "FLUSHALL", "FLUSHDB", "WAIT",
        "MEMORY", "LATENCY", "ROLE", "LASTSAVE", "DEBUG", "SENTINEL", "READONLY", "READWRITE", "ASKING" };
    if (keyless.contains(name))
        return std::nullopt;
    return argv.at(1);
}

std::optional<RedisRouter::Redirect> RedisRouter::parseRedirect(const RedisValue &reply)
{
    if (!reply.isError())
        return std::nullopt;
    const QByteArray &text = reply.bytes();
    const bool ask = text.startsWith("ASK ");
    if (!ask && !text.startsWith("MOVED "))
        return std::nullopt;
    const QList<QByteArray> parts = text.split(' ');
    if (parts.size() < 3)
        return std::nullopt;
    const int colon = parts.at(2).lastIndexOf(':');
    if (colon <= 0)
        return std::nullopt;
    Redirect r;
    r.slot = quint16(parts.at(1).toUInt());
    r.host = QString::fromLatin1(parts.at(2).left(colon));
    r.port = quint16(parts.at(2).mid(colon + 1).toUInt());
    r.ask = ask;
    return r.port ? std::optional<Redirect>(r) : std::nullopt;
}

bool RedisRouter::retryLater(const RedisValue &reply)
{
    return reply.isError() && (reply.bytes().startsWith("TRYAGAIN") || reply.bytes().startsWith("CLUSTERDOWN"));
}

bool RedisRouter::mayFollow(int redirects, qint64 deadline) const
{
    // During a migration a command may bounce between ASK and TRYAGAIN until the slot has moved: the deadline
    // bounds that, the count bounds a map that points in circles.
    return redirects < kMaxRedirects || (deadline > 0 && nowMs() < deadline && redirects < 10 * kMaxRedirects);
}

qint64 RedisRouter::deadlineFromNow() const
{
    return m_options.commandTimeoutMs > 0 ? nowMs() + m_options.commandTimeoutMs : 0;
}

void RedisRouter::later(Callback callback, const RedisError &error)
{
    if (!callback)
        return;
    QMetaObject::invokeMethod(
        this, [callback = std::move(callback), error] { callback(RedisResult::fromError(error)); },
        Qt::QueuedConnection);
}

void RedisRouter::command(QList<QByteArray> argv, Callback callback)
{
    switch (m_mode) {
    case Mode::Standalone:
        m_seed->command(std::move(argv), std::move(callback));
        return;
    case Mode::Probing:
        m_waiting.append({ std::move(argv), nullptr, {}, std::move(callback) });
        probe();
        return;
    case Mode::Cluster:
        break;
    }
    const std::optional<QByteArray> key = routingKey(argv);
    RedisError error;
    RedisConnection *target = key ? nodeForSlot(keySlot(*key), &error) : primary();
    if (!target) {
        later(std::move(callback), error);
        refreshTopology();
        return;
    }
    dispatch(target, std::move(argv), std::move(callback), 0, deadlineFromNow(), false);
}

void RedisRouter::dispatch(
    RedisConnection *target, QList<QByteArray> argv, Callback callback, int redirects, qint64 deadline, bool asking)
{
    QPointer<RedisRouter> self(this);
    if (asking)
        target->command({ "ASKING" });
    target->command(argv, [self, argv, callback, redirects, deadline](const RedisResult &r) {
        if (self && self->mayFollow(redirects, deadline)) {
            if (const auto redirect = parseRedirect(r.value)) {
                if (!redirect->ask) {
                    self->m_moved.insert(redirect->slot, address(redirect->host, redirect->port));
                    self->m_slotNodes[redirect->slot % 16384] = self->node(redirect->host, redirect->port);
                    self->refreshTopology();
                }
                RedisConnection *next = self->node(redirect->host, redirect->port);
                next->cork();
                self->dispatch(next, argv, callback, redirects + 1, deadline, redirect->ask);
                next->uncork();
                return;
            }
            if (retryLater(r.value) && (deadline == 0 || self->nowMs() + kRetryDelayMs < deadline)) {
                QTimer::singleShot(kRetryDelayMs, self, [self, argv, callback, redirects, deadline] {
                    RedisError error;
                    const std::optional<QByteArray> key = routingKey(argv);
                    RedisConnection *target = key ? self->nodeForSlot(keySlot(*key), &error) : self->primary();
                    if (target)
                        self->dispatch(target, argv, callback, redirects + 1, deadline, false);
                    else
                        self->later(callback, error);
                });
                return;
            }
        }
        if (callback)
            callback(r);
    });
}

void RedisRouter::eval(
    const RedisScript &script, const QList<QByteArray> &keys, const QList<QByteArray> &args, Callback callback)
{
    if (m_mode == Mode::Standalone) {
        m_seed->eval(script, keys, args, std::move(callback));
        return;
    }
    if (m_mode == Mode::Probing) {
        m_waiting.append({ keys, &script, args, std::move(callback) });
        probe();
        return;
    }
    if (keys.isEmpty()) {
        dispatchEval(primary(), script, keys, args, std::move(callback), 0, deadlineFromNow(), false);
        return;
    }
    const quint16 slot = keySlot(keys.first());
    for (const QByteArray &k : keys) {
        if (keySlot(k) != slot) {
            // The protocol's naming rule puts aux keys in the lock's slot unless the name holds a '{' that is not a
            // hash tag: such a lock cannot work in a cluster, with Redisson either.
            later(std::move(callback),
                RedisError(RedisError::Kind::InvalidArgument,
                    tr("CROSSSLOT the lock's keys fall in different cluster slots (%1 and %2): a name containing "
                       "'{' must hold a whole hash tag such as {tag}")
                        .arg(slot)
                        .arg(keySlot(k))));
            return;
        }
    }
    RedisError error;
    RedisConnection *target = nodeForSlot(slot, &error);
    if (!target) {
        later(std::move(callback), error);
        refreshTopology();
        return;
    }
    dispatchEval(target, script, keys, args, std::move(callback), 0, deadlineFromNow(), false);
}

void RedisRouter::dispatchEval(RedisConnection *target, const RedisScript &script, QList<QByteArray> keys,
    QList<QByteArray> args, Callback callback, int redirects, qint64 deadline, bool asking)
{
    QPointer<RedisRouter> self(this);
    if (asking)
        target->command({ "ASKING" });
    // Scripts are static objects (LockScripts), so a pointer outlives every reply.
    const RedisScript *s = &script;
    target->eval(script, keys, args, [self, s, keys, args, callback, redirects, deadline](const RedisResult &r) {
        if (self && self->mayFollow(redirects, deadline)) {
            if (const auto redirect = parseRedirect(r.value)) {
                if (!redirect->ask) {
                    self->m_moved.insert(redirect->slot, address(redirect->host, redirect->port));
                    self->m_slotNodes[redirect->slot % 16384] = self->node(redirect->host, redirect->port);
                    self->refreshTopology();
                }
                RedisConnection *next = self->node(redirect->host, redirect->port);
                next->cork();
                self->dispatchEval(next, *s, keys, args, callback, redirects + 1, deadline, redirect->ask);
                next->uncork();
                return;
            }
            if (retryLater(r.value) && (deadline == 0 || self->nowMs() + kRetryDelayMs < deadline)) {
                QTimer::singleShot(kRetryDelayMs, self, [self, s, keys, args, callback, redirects, deadline] {
                    RedisError error;
                    RedisConnection *target = self->nodeForSlot(keySlot(keys.first()), &error);
                    if (target)
                        self->dispatchEval(target, *s, keys, args, callback, redirects + 1, deadline, false);
                    else
                        self->later(callback, error);
                });
                return;
            }
        }
        if (callback)
            callback(r);
    });
}

void RedisRouter::commandDeferred(const QList<QByteArray> &argv)
{
    if (m_mode == Mode::Standalone) {
        m_seed->commandDeferred(argv);
        return;
    }
    command(argv); // rare housekeeping (a latch's DEL): not worth a deferred queue per node
}

void RedisRouter::flushDeferred()
{
    m_seed->flushDeferred();
}

void RedisRouter::cork()
{
    ++m_corked;
    m_seed->cork();
    for (RedisConnection *c : std::as_const(m_nodes))
        c->cork();
}

void RedisRouter::uncork()
{
    if (m_corked == 0)
        return;
    --m_corked;
    m_seed->uncork();
    for (RedisConnection *c : std::as_const(m_nodes))
        c->uncork();
}

void RedisRouter::replayWaiting()
{
    const auto waiting = std::exchange(m_waiting, {});
    cork();
    for (const Waiting &w : waiting) {
        if (w.script)
            eval(*w.script, w.argv, w.args, w.callback);
        else
            command(w.argv, w.callback);
    }
    uncork();
}

void RedisRouter::failWaiting(const RedisError &error)
{
    const auto waiting = std::exchange(m_waiting, {});
    for (const Waiting &w : waiting)
        later(w.callback, error);
}

} // namespace LockScope
