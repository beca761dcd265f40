#include "clusterstart.h"

#include "benchcommon.h"
#include "local/localredisserver.h"
#include "redis/redisvalue.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QThread>

#include <hiredis.h>

namespace LockScope::Bench {

namespace {

constexpr int kSlots = 16384;
constexpr int kCreateTimeoutMs = 60000;
constexpr int kServedTimeoutMs = 30000;
constexpr int kScanCount = 1000;

// SlotMap reads core's reply type; the bench's pipes speak hiredis.
RedisValue toValue(const redisReply *reply)
{
    switch (reply->type) {
    case REDIS_REPLY_STATUS:
        return RedisValue::status(QByteArray(reply->str, qsizetype(reply->len)));
    case REDIS_REPLY_ERROR:
        return RedisValue::error(QByteArray(reply->str, qsizetype(reply->len)));
    case REDIS_REPLY_INTEGER:
        return RedisValue::integer(reply->integer);
    case REDIS_REPLY_STRING:
        return RedisValue::string(QByteArray(reply->str, qsizetype(reply->len)));
    case REDIS_REPLY_ARRAY: {
        QList<RedisValue> elements;
        for (size_t i = 0; i < reply->elements; ++i)
            elements << toValue(reply->element[i]);
        return RedisValue::array(elements);
    }
    default:
        return RedisValue::nil();
    }
}

QByteArray bytesOf(const redisReply *reply)
{
    return QByteArray(reply->str, qsizetype(reply->len));
}

// Reads n replies; an error reply is an error here (every command of these pipelines is expected to succeed).
bool drain(RawPipe &pipe, int n, const char *what, QString *error, qint64 *integers = nullptr)
{
    for (int i = 0; i < n; ++i) {
        RawReply reply = pipe.next(error);
        if (!reply)
            return false;
        if (isErrorReply(reply.get())) {
            *error = QStringLiteral("%1: %2").arg(QLatin1String(what), QString::fromUtf8(replyText(reply.get())));
            return false;
        }
        if (integers && reply->type == REDIS_REPLY_INTEGER)
            *integers += reply->integer;
    }
    return true;
}

QStringList clusterNodeArgs(const QList<quint16> &extraPorts)
{
    // The bus port is picked with the client port, not port + 10000, which may be taken or out of range.
    return { QStringLiteral("--cluster-enabled"), QStringLiteral("yes"), QStringLiteral("--cluster-config-file"),
        QStringLiteral("nodes.conf"), QStringLiteral("--cluster-node-timeout"), QStringLiteral("2000"),
        QStringLiteral("--cluster-port"), QString::number(extraPorts.value(0)) };
}

} // namespace

BenchCluster::BenchCluster() = default;
BenchCluster::~BenchCluster() = default;

bool BenchCluster::open(const QString &seedUrl, int masters, QString *error)
{
    if (seedUrl.isEmpty()) {
        if (!startPrivate(masters, error))
            return false;
    } else {
        RedisError parseError;
        m_url = seedUrl;
        m_options = ConnectionOptions::fromUrl(seedUrl, &parseError);
        if (parseError.isError()) {
            *error = parseError.toString();
            return false;
        }
    }
    return readSlotMap(error);
}

QList<ConnectionOptions> BenchCluster::masterOptions() const
{
    QList<ConnectionOptions> out;
    for (const ClusterNode &master : m_map.masters())
        out << m_options.forNode(master.host, master.port);
    return out;
}

bool BenchCluster::startPrivate(int masters, QString *error)
{
    QList<quint16> ports;
    for (int i = 0; i < masters; ++i) {
        LocalRedisServer::Options options;
        options.extraPortCount = 1;
        options.extraPortArgs = clusterNodeArgs;
        m_nodes.push_back(std::make_unique<LocalRedisServer>(std::move(options)));
        if (!m_nodes.back()->start(error))
            return false;
        ports << m_nodes.back()->port();
    }
    QStringList args { QStringLiteral("--cluster"), QStringLiteral("create") };
    for (const quint16 port : std::as_const(ports))
        args << QStringLiteral("127.0.0.1:%1").arg(port);
    args << QStringLiteral("--cluster-replicas") << QStringLiteral("0") << QStringLiteral("--cluster-yes");
    QProcess cli;
    cli.start(QStringLiteral("redis-cli"), args);
    if (!cli.waitForFinished(kCreateTimeoutMs) || cli.exitStatus() != QProcess::NormalExit || cli.exitCode() != 0) {
        *error = QStringLiteral("redis-cli --cluster create failed (%1): %2%3")
                     .arg(cli.errorString(), QString::fromLocal8Bit(cli.readAllStandardOutput()),
                         QString::fromLocal8Bit(cli.readAllStandardError()));
        return false;
    }
    RedisError parseError;
    m_url = m_nodes.front()->url();
    m_options = ConnectionOptions::fromUrl(m_url, &parseError);
    return waitUntilServed(ports, error);
}

// redis-cli returns once the slots are assigned; each node learns of the others' through gossip a little later, and
// a monitor started before that could be told of a partial map.
bool BenchCluster::waitUntilServed(const QList<quint16> &ports, QString *error)
{
    const QDeadlineTimer deadline(kServedTimeoutMs);
    for (const quint16 port : ports) {
        RawPipe pipe;
        if (!pipe.connect(m_options.forNode(QStringLiteral("127.0.0.1"), port), error))
            return false;
        while (true) {
            RawReply info = pipe.command({ "CLUSTER", "INFO" }, error);
            if (!info)
                return false;
            const QByteArray text = replyText(info.get());
            if (text.contains("cluster_state:ok") && text.contains("cluster_slots_ok:16384"))
                break;
            if (deadline.hasExpired()) {
                *error = QStringLiteral("cluster not ready on port %1: %2").arg(port).arg(QString::fromLatin1(text));
                return false;
            }
            QThread::msleep(50); // a readiness poll against a deadline, before anything is measured
        }
    }
    return true;
}

bool BenchCluster::readSlotMap(QString *error)
{
    RawPipe pipe;
    if (!pipe.connect(m_options, error))
        return false;
    RawReply shards = pipe.command({ "CLUSTER", "SHARDS" }, error);
    if (!shards)
        return false;
    QString mapError;
    if (isErrorReply(shards.get())) {
        // Before Redis 7.
        RawReply slotList = pipe.command({ "CLUSTER", "SLOTS" }, error);
        if (!slotList)
            return false;
        if (isErrorReply(slotList.get())) {
            *error = QStringLiteral("%1 is not a cluster node: %2")
                         .arg(m_options.toDisplayUrl(), QString::fromUtf8(replyText(slotList.get())));
            return false;
        }
        m_map = SlotMap::fromSlots(toValue(slotList.get()), &mapError);
    } else {
        m_map = SlotMap::fromShards(toValue(shards.get()), &mapError);
    }
    if (m_map.coveredSlots() != kSlots) {
        *error = QStringLiteral("the cluster serves %1 of %2 slots %3")
                     .arg(m_map.coveredSlots())
                     .arg(kSlots)
                     .arg(mapError);
        return false;
    }
    return true;
}

bool ClusterPipes::connect(const BenchCluster &cluster, QString *error)
{
    m_map = cluster.slotMap();
    m_masters = m_map.masters();
    const QList<ConnectionOptions> options = cluster.masterOptions();
    for (const ConnectionOptions &node : options) {
        m_pipes.push_back(std::make_unique<RawPipe>());
        if (!m_pipes.back()->connect(node, error))
            return false;
    }
    m_slotOwner.resize(kSlots);
    for (int slot = 0; slot < kSlots; ++slot)
        m_slotOwner[size_t(slot)] = int(m_masters.indexOf(m_map.masterFor(quint16(slot))));
    return true;
}

int ClusterPipes::indexForKey(const QByteArray &key) const
{
    return m_slotOwner[keySlot(key)];
}

qint64 databaseSize(RawPipe &pipe, QString *error)
{
    RawReply size = pipe.command({ "DBSIZE" }, error);
    if (!size)
        return -1;
    if (size->type != REDIS_REPLY_INTEGER) {
        *error = QStringLiteral("DBSIZE: %1").arg(QString::fromUtf8(replyText(size.get())));
        return -1;
    }
    return size->integer;
}

qint64 copyKeyspace(RawPipe &from, ClusterPipes &to, int chunkCommands, QString *error)
{
    std::vector<int> pending(size_t(to.size()), 0);
    qint64 copied = 0;
    QByteArray cursor = "0";
    QList<QByteArray> keys;
    do {
        RawReply scan = from.command({ "SCAN", cursor, "COUNT", QByteArray::number(kScanCount) }, error);
        if (!scan)
            return -1;
        if (scan->type != REDIS_REPLY_ARRAY || scan->elements != 2) {
            *error = QStringLiteral("copy SCAN: %1").arg(QString::fromUtf8(replyText(scan.get())));
            return -1;
        }
        cursor = bytesOf(scan->element[0]);
        keys.clear();
        for (size_t i = 0; i < scan->element[1]->elements; ++i)
            keys << bytesOf(scan->element[1]->element[i]);
        for (const QByteArray &key : std::as_const(keys)) {
            from.append({ "DUMP", key });
            from.append({ "PTTL", key });
        }
        for (const QByteArray &key : std::as_const(keys)) {
            RawReply payload = from.next(error);
            RawReply pttl = payload ? from.next(error) : nullptr;
            if (!pttl)
                return -1;
            if (isErrorReply(payload.get()) || isErrorReply(pttl.get())) {
                *error
                    = QStringLiteral("copy DUMP/PTTL %1: %2")
                          .arg(QString::fromUtf8(key),
                              QString::fromUtf8(replyText(isErrorReply(payload.get()) ? payload.get() : pttl.get())));
                return -1;
            }
            if (payload->type != REDIS_REPLY_STRING || pttl->integer == -2)
                continue; // gone meanwhile
            const int node = to.indexForKey(key);
            const QByteArray ttl = QByteArray::number(qMax<qint64>(0, pttl->integer));
            to.at(node).append({ "RESTORE", key, ttl, bytesOf(payload.get()), "REPLACE" });
            ++copied;
            if (++pending[size_t(node)] >= chunkCommands) {
                if (!drain(to.at(node), pending[size_t(node)], "copy RESTORE", error))
                    return -1;
                pending[size_t(node)] = 0;
            }
        }
    } while (cursor != "0");
    for (int node = 0; node < to.size(); ++node)
        if (!drain(to.at(node), pending[size_t(node)], "copy RESTORE", error))
            return -1;
    return copied;
}

qint64 removeSeededFromCluster(ClusterPipes &pipes, QString *error)
{
    qint64 removed = 0;
    for (int node = 0; node < pipes.size(); ++node) {
        RawPipe &pipe = pipes.at(node);
        QByteArray cursor = "0";
        do {
            RawReply scan = pipe.command({ "SCAN", cursor, "MATCH", "*bench:*", "COUNT", "1000" }, error);
            if (!scan)
                return removed;
            if (scan->type != REDIS_REPLY_ARRAY || scan->elements != 2) {
                *error = QStringLiteral("cleanup SCAN: %1").arg(QString::fromUtf8(replyText(scan.get())));
                return removed;
            }
            cursor = bytesOf(scan->element[0]);
            const redisReply *found = scan->element[1];
            for (size_t i = 0; i < found->elements; ++i)
                pipe.append({ "UNLINK", bytesOf(found->element[i]) });
            if (!drain(pipe, int(found->elements), "cleanup UNLINK", error, &removed))
                return removed;
        } while (cursor != "0");
    }
    return removed;
}

} // namespace LockScope::Bench
