#pragma once

#include "redis/redisvalue.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>

struct redisContext;

namespace LockScope::Test {

// The tests' ground truth: a blocking client on hiredis's synchronous API that shares no code with the
// LockScope client under test (only the RedisValue value type). Plain TCP to 127.0.0.1 only, RESP2 only.
//
// Transport failures come back as an error reply starting with "RAWREDIS " and leave isConnected() false,
// so a broken fixture shows up in a QCOMPARE message instead of as a crash.
class RawRedis
{
public:
    // Connect and read timeouts are 5 s; AUTH is sent when a password is given (AUTH user password with a user).
    explicit RawRedis(quint16 port, const QByteArray &user = {}, const QByteArray &password = {});
    ~RawRedis();
    RawRedis(const RawRedis &) = delete;
    RawRedis &operator=(const RawRedis &) = delete;

    bool isConnected() const;
    QString errorString() const;

    // Binary safe. Do not mix with unread append() replies: this returns the oldest pending reply.
    RedisValue command(const QList<QByteArray> &argv);

    // For pipelines and pub/sub: queue a command, then collect replies and pushed messages with readReply().
    void append(const QList<QByteArray> &argv);
    // Sends what append() queued without waiting for a reply (a blocking command the test then watches the server for).
    void flush();
    // Waits at most timeoutMs (negative: the 5 s read timeout) for the next reply. A timeout sets *timedOut
    // and returns a "RAWREDIS timed out" error value, yet leaves the connection usable: the waiting happens in
    // poll(), not in hiredis, whose blocking read would mark the context as failed for good on EAGAIN.
    RedisValue readReply(int timeoutMs, bool *timedOut = nullptr);

    // Null for a missing key.
    QByteArray get(const QByteArray &key);
    // Whether some client is running command right now (CLIENT LIST's cmd=), such as a waiter blocked in BLPOP.
    bool clientRunning(const QByteArray &command);
    // -2 for a missing key, -1 for a key without expiry, the qint64 minimum when the command failed.
    qint64 pttl(const QByteArray &key);
    // "none" for a missing key.
    QByteArray type(const QByteArray &key);
    QMap<QByteArray, QByteArray> hgetall(const QByteArray &key);

private:
    RedisValue transportError();
    void fail(const QString &message);

    redisContext *m_context = nullptr;
    QString m_error;
};

// Whether key's lease was renewed: each call reads its TTL, and says yes once it reads more than margin ms above the
// lowest TTL read so far. Comparing with the first reading fails when that reading was taken just after a renewal,
// which only equals the full lease. For QTRY_VERIFY(renewed()).
class RenewalSeen
{
public:
    RenewalSeen(RawRedis &raw, QByteArray key, qint64 marginMs)
        : m_raw(raw)
        , m_key(std::move(key))
        , m_margin(marginMs)
        , m_lowest(raw.pttl(m_key))
    { }
    bool operator()()
    {
        const qint64 now = m_raw.pttl(m_key);
        m_lowest = qMin(m_lowest, now);
        return now > m_lowest + m_margin;
    }

private:
    RawRedis &m_raw;
    QByteArray m_key;
    qint64 m_margin;
    qint64 m_lowest;
};

} // namespace LockScope::Test
