#include "lockscanner.h"

#include "locknames.h"
#include "redisconnection.h"

#include <QDateTime>

#include <memory>

namespace LockScope {

LockScanner::LockScanner(RedisConnection *connection, Options options, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_options(std::move(options))
{ }

void LockScanner::start()
{
    if (m_running)
        return;
    m_running = true;
    m_keysSeen = 0;
    scanFrom("0");
}

void LockScanner::readKeys(const QList<QByteArray> &keys)
{
    if (m_running)
        return;
    m_running = true;
    m_keysSeen = int(keys.size());
    snapshot(keys, "0");
}

void LockScanner::fail(const RedisError &error)
{
    m_running = false;
    emit finished(error, m_keysSeen);
}

void LockScanner::scanFrom(const QByteArray &cursor)
{
    QPointer<LockScanner> self(this);
    m_connection->command(
        { "SCAN", cursor, "MATCH", m_options.pattern, "COUNT", QByteArray::number(m_options.count), "TYPE", "hash" },
        [self](const RedisResult &r) {
            if (!self)
                return;
            if (!r.ok() || !r.value.isArray() || r.value.size() != 2) {
                self->fail(
                    r.ok() ? RedisError(RedisError::Kind::Protocol, QStringLiteral("unexpected SCAN reply")) : r.error);
                return;
            }
            QList<QByteArray> keys;
            for (const RedisValue &k : r.value.at(1).elements())
                keys << k.bytes();
            self->m_keysSeen += keys.size();
            self->snapshot(keys, r.value.at(0).bytes());
        });
}

void LockScanner::snapshot(const QList<QByteArray> &keys, const QByteArray &nextCursor)
{
    if (keys.isEmpty()) {
        readAux({}, nextCursor);
        return;
    }
    auto snaps = std::make_shared<QList<KeySnapshot>>();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QPointer<LockScanner> self(this);
    m_connection->cork();
    for (const QByteArray &key : keys) {
        // Fields and PTTL back to back in one pipeline (protocol §8). No MULTI: a monitor's ACL may allow reads only.
        auto fields = std::make_shared<RedisValue>();
        m_connection->command({ "HGETALL", key }, [fields](const RedisResult &r) { *fields = r.value; });
        m_connection->command({ "PTTL", key }, [snaps, key, now, fields](const RedisResult &r) {
            // Deleted between SCAN and now, or replaced by another type: nothing to classify.
            if (!fields->isArray() || fields->size() == 0 || !r.ok())
                return;
            KeySnapshot s;
            s.name = key;
            s.nowMs = now;
            s.type = "hash";
            for (int i = 0; i + 1 < fields->size(); i += 2)
                s.fields.append({ fields->at(i).bytes(), fields->at(i + 1).bytes() });
            s.pttlMs = r.value.toInteger();
            snaps->append(s);
        });
    }
    // A PING closes the batch: its reply comes after every EXEC above.
    m_connection->command({ "PING" }, [self, snaps, nextCursor](const RedisResult &r) {
        if (!self)
            return;
        if (!r.ok()) {
            self->fail(r.error);
            return;
        }
        QList<KeySnapshot> candidates;
        for (const KeySnapshot &s : *snaps) {
            bool anyOwner = false;
            for (const auto &field : s.fields)
                anyOwner = anyOwner || isOwnerField(field.first) || field.first.endsWith(":write");
            if (anyOwner)
                candidates << s;
        }
        self->readAux(std::move(candidates), nextCursor);
    });
    m_connection->uncork();
}

void LockScanner::readAux(QList<KeySnapshot> candidates, const QByteArray &nextCursor)
{
    auto snaps = std::make_shared<QList<KeySnapshot>>(std::move(candidates));
    QPointer<LockScanner> self(this);
    m_connection->cork();
    for (int i = 0; i < snaps->size(); ++i) {
        const QByteArray name = snaps->at(i).name;
        m_connection->command({ "EXISTS", LockNames::fencingToken(name) },
            [snaps, i](const RedisResult &r) { (*snaps)[i].tokenKeyExists = r.value.toInteger() == 1; });
        m_connection->command(
            { "ZRANGE", LockNames::fairTimeouts(name), "0", "-1", "WITHSCORES" }, [snaps, i](const RedisResult &r) {
                KeySnapshot &s = (*snaps)[i];
                const RedisValue &v = r.value;
                for (int k = 0; k + 1 < v.size(); k += 2)
                    s.queueDeadlines.insert(v.at(k).bytes(), v.at(k + 1).bytes().toLongLong());
            });
        m_connection->command({ "LRANGE", LockNames::fairQueue(name), "0", "-1" }, [snaps, i](const RedisResult &r) {
            for (const RedisValue &m : r.value.elements())
                (*snaps)[i].queue << m.bytes();
        });
        const bool readWrite = std::any_of(
            snaps->at(i).fields.cbegin(), snaps->at(i).fields.cend(), [](const auto &f) { return f.first == "mode"; });
        m_connection->command(
            { "PUBSUB", "NUMSUB", readWrite ? LockNames::rwChannel(name) : LockNames::lockChannel(name) },
            [snaps, i](const RedisResult &r) { (*snaps)[i].channelSubscribers = int(r.value.at(1).toInteger()); });
        if (!readWrite)
            continue;
        // Each reader's timeout keys 1..count: how many are still alive says whether the reader is.
        for (const auto &[field, value] : snaps->at(i).fields) {
            if (field == "mode" || field.endsWith(":write"))
                continue;
            QList<QByteArray> argv { "EXISTS" };
            const QByteArray prefix = LockNames::rwTimeoutPrefix(name, field);
            const qint64 count = qBound(qint64(0), value.toLongLong(), qint64(1000));
            for (qint64 k = 1; k <= count; ++k)
                argv << prefix + ':' + QByteArray::number(k);
            if (argv.size() == 1)
                continue;
            m_connection->command(argv, [snaps, i, field](const RedisResult &r) {
                (*snaps)[i].liveReadTimeouts.insert(field, int(r.value.toInteger()));
            });
        }
    }
    m_connection->command({ "PING" }, [self, snaps, nextCursor](const RedisResult &r) {
        if (!self)
            return;
        if (!r.ok()) {
            self->fail(r.error);
            return;
        }
        QList<LockInfo> locks;
        for (const KeySnapshot &s : *snaps) {
            const LockInfo info = classify(s);
            if (info.isLock())
                locks << info;
        }
        if (!locks.isEmpty())
            emit self->locksFound(locks);
        if (!self)
            return;
        if (nextCursor == "0") {
            self->m_running = false;
            emit self->finished({}, self->m_keysSeen);
        } else {
            self->scanFrom(nextCursor);
        }
    });
    m_connection->uncork();
}

} // namespace LockScope
