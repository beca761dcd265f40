#include "redis/redisrouter.h"

#include "redis/commandpolicy.h"
#include "redis/redisconnection.h"
#include "redis/redisscript.h"

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

int RedisRouter::retryDelayMs() const
{
    // Before the topology is known (probing) and outside a cluster, the seed connection is the one that retries. A
    // cluster's nodes each reconnect on their own: no one delay to name.
    return m_mode == Mode::Cluster ? RetryUnknown : m_seed->retryDelayMs();
}

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
    for (const RedisConnection *c : m_replicas)
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

QList<RedisConnection *> RedisRouter::scanConnections()
{
    if (m_mode != Mode::Cluster || !m_options.replicaReads)
        return masterConnections();
    QList<RedisConnection *> list;
    for (const ClusterNode &m : m_map.masters()) {
        const auto range = std::find_if(m_map.ranges().cbegin(), m_map.ranges().cend(),
            [&m](const SlotMap::Range &r) { return r.master == m && !r.replicas.isEmpty(); });
        list << (range == m_map.ranges().cend() ? node(m.host, m.port)
                                                : replica(range->replicas.first().host, range->replicas.first().port));
    }
    return list;
}

RedisConnection *RedisRouter::replica(const QString &host, quint16 port)
{
    RedisConnection *&c = m_replicas[address(host, port)];
    if (!c) {
        ConnectionOptions o = m_options.forNode(host, port);
        o.replicaConnection = true;
        c = new RedisConnection(o, this);
        for (int i = 0; i < m_corked; ++i)
            c->cork();
        connect(c, &RedisConnection::disconnected, this, &RedisRouter::onNodeDown);
        c->open();
    }
    return c;
}

void RedisRouter::readReplicaLag(std::function<void(int, const QString &)> done)
{
    const QList<RedisConnection *> replicas = m_replicas.values();
    if (replicas.isEmpty()) {
        done(0, {});
        return;
    }
    struct Lag
    {
        int worst = 0;
        QStringList detail;
        int left = 0;
    };
    auto lag = std::make_shared<Lag>();
    lag->left = int(replicas.size());
    for (RedisConnection *c : replicas) {
        const QString where = address(c->options().host, c->options().port);
        c->command({ "INFO", "replication" }, [lag, where, done](const RedisResult &r) {
            int seconds = -1;
            bool up = false;
            for (const QByteArray &line : r.value.bytes().split('\n')) {
                if (line.startsWith("master_link_status:"))
                    up = line.trimmed().endsWith("up");
                if (line.startsWith("master_last_io_seconds_ago:"))
                    seconds = line.mid(27).trimmed().toInt();
            }
            if (!r.ok() || !up)
                seconds = -1;
            if (seconds < 0)
                lag->worst = -1;
            else if (lag->worst >= 0)
                lag->worst = qMax(lag->worst, seconds);
            lag->detail << (seconds < 0 ? tr("%1: link to its master down").arg(where)
                                        : tr("%1: %2 s behind at most").arg(where).arg(seconds));
            if (--lag->left == 0)
                done(lag->worst, lag->detail.join(QLatin1Char('\n')));
        });
    }
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
    const QByteArray code = reply.errorCode();
    const bool ask = code == "ASK";
    if (!ask && code != "MOVED")
        return std::nullopt;
    const QList<QByteArray> parts = reply.bytes().split(' '); // "MOVED <slot> <host>:<port>"
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
    const QByteArray code = reply.errorCode();
    return code == "TRYAGAIN" || code == "CLUSTERDOWN";
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
    RedisConnection *target = nullptr;
    if (key && m_options.replicaReads && isReadOnlyCommand(argv))
        target = m_slotReplicas[keySlot(*key) % 16384];
    Routed routed { std::move(argv), nullptr, {}, std::move(callback), deadlineFromNow() };
    if (target)
        send(target, routed, false);
    else
        dispatch(std::move(routed));
}

void RedisRouter::dispatch(Routed routed)
{
    RedisError error;
    if (RedisConnection *target = routeOf(routed, &error)) {
        send(target, routed, false);
        return;
    }
    refreshTopology();
    // No master serves the slot: in a failover the replica's promotion is moments away, so the command waits for
    // it as for a CLUSTERDOWN reply, until its deadline.
    if (mayRetry(routed)) {
        ++routed.redirects;
        QTimer::singleShot(kRetryDelayMs, this, [this, routed] { dispatch(routed); });
        return;
    }
    later(routed.callback, error);
}

bool RedisRouter::mayRetry(const Routed &routed) const
{
    return mayFollow(routed.redirects, routed.deadline)
        && (routed.deadline == 0 || nowMs() + kRetryDelayMs < routed.deadline);
}

RedisConnection *RedisRouter::routeOf(const Routed &routed, RedisError *error)
{
    std::optional<QByteArray> key;
    if (!routed.script)
        key = routingKey(routed.argv);
    else if (!routed.argv.isEmpty())
        key = routed.argv.first();
    return key ? nodeForSlot(keySlot(*key), error) : primary();
}

void RedisRouter::send(RedisConnection *target, const Routed &routed, bool asking)
{
    QPointer<RedisRouter> self(this);
    if (asking)
        target->command({ "ASKING" });
    const auto onReply = [self, routed](const RedisResult &r) {
        if (self)
            self->handleReply(routed, r);
        else if (routed.callback)
            routed.callback(r);
    };
    if (routed.script)
        target->eval(*routed.script, routed.argv, routed.args, onReply);
    else
        target->command(routed.argv, onReply);
}

void RedisRouter::handleReply(Routed routed, const RedisResult &r)
{
    if (mayFollow(routed.redirects, routed.deadline)) {
        if (const auto redirect = parseRedirect(r.value)) {
            if (!redirect->ask) {
                m_moved.insert(redirect->slot, address(redirect->host, redirect->port));
                m_slotNodes[redirect->slot % 16384] = node(redirect->host, redirect->port);
                refreshTopology();
            }
            RedisConnection *next = node(redirect->host, redirect->port);
            ++routed.redirects;
            next->cork();
            send(next, routed, redirect->ask);
            next->uncork();
            return;
        }
        if (retryLater(r.value) && mayRetry(routed)) {
            ++routed.redirects;
            QTimer::singleShot(kRetryDelayMs, this, [this, routed] { dispatch(routed); });
            return;
        }
    }
    if (routed.callback)
        routed.callback(r);
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
        send(primary(), { keys, &script, args, std::move(callback), deadlineFromNow() }, false);
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
    dispatch({ keys, &script, args, std::move(callback), deadlineFromNow() });
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
    for (RedisConnection *c : std::as_const(m_replicas))
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
    for (RedisConnection *c : std::as_const(m_replicas))
        c->uncork();
}

void RedisRouter::replayWaiting()
{
    const auto waiting = std::exchange(m_waiting, {});
    cork();
    for (const Routed &w : waiting) {
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
    for (const Routed &w : waiting)
        later(w.callback, error);
}

} // namespace LockScope
