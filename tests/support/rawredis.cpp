#include "rawredis.h"

#include <QDeadlineTimer>

#include <hiredis/hiredis.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <poll.h>
#include <vector>

namespace LockScope::Test {

namespace {

constexpr int defaultTimeoutMs = 5000;

RedisValue toValue(const redisReply *reply)
{
    switch (reply->type) {
    case REDIS_REPLY_STATUS:
        return RedisValue::status(QByteArray(reply->str, static_cast<qsizetype>(reply->len)));
    case REDIS_REPLY_ERROR:
        return RedisValue::error(QByteArray(reply->str, static_cast<qsizetype>(reply->len)));
    case REDIS_REPLY_INTEGER:
        return RedisValue::integer(reply->integer);
    case REDIS_REPLY_STRING:
        return RedisValue::string(QByteArray(reply->str, static_cast<qsizetype>(reply->len)));
    case REDIS_REPLY_ARRAY: {
        QList<RedisValue> elements;
        elements.reserve(static_cast<qsizetype>(reply->elements));
        for (size_t i = 0; i < reply->elements; ++i)
            elements.append(toValue(reply->element[i]));
        return RedisValue::array(std::move(elements));
    }
    case REDIS_REPLY_NIL:
    default:
        return RedisValue::nil();
    }
}

// Takes ownership of the hiredis reply.
RedisValue consume(void *reply)
{
    const RedisValue value = toValue(static_cast<redisReply *>(reply));
    freeReplyObject(reply);
    return value;
}

// hiredis wants parallel C arrays; the QByteArrays must outlive the call.
struct ArgvView
{
    explicit ArgvView(const QList<QByteArray> &argv)
    {
        pointers.reserve(argv.size());
        lengths.reserve(argv.size());
        for (const QByteArray &arg : argv) {
            pointers.push_back(arg.constData());
            lengths.push_back(static_cast<size_t>(arg.size()));
        }
    }
    int count() const { return static_cast<int>(pointers.size()); }

    std::vector<const char *> pointers;
    std::vector<size_t> lengths;
};

timeval toTimeval(int ms)
{
    return timeval { ms / 1000, static_cast<suseconds_t>((ms % 1000) * 1000) };
}

} // namespace

RawRedis::RawRedis(quint16 port, const QByteArray &user, const QByteArray &password)
{
    m_context = redisConnectWithTimeout("127.0.0.1", port, toTimeval(defaultTimeoutMs));
    if (!m_context) {
        m_error = QStringLiteral("cannot allocate a hiredis context");
        return;
    }
    if (m_context->err) {
        fail(QStringLiteral("cannot connect to 127.0.0.1:%1: %2").arg(port).arg(QString::fromUtf8(m_context->errstr)));
        return;
    }
    if (redisSetTimeout(m_context, toTimeval(defaultTimeoutMs)) != REDIS_OK) {
        fail(QStringLiteral("cannot set the read timeout: %1").arg(QString::fromUtf8(m_context->errstr)));
        return;
    }
    if (password.isEmpty())
        return;

    QList<QByteArray> auth { QByteArrayLiteral("AUTH") };
    if (!user.isEmpty())
        auth.append(user);
    auth.append(password);
    const RedisValue reply = command(auth);
    if (!reply.isStatus())
        fail(QStringLiteral("AUTH failed: %1").arg(reply.toDebugString()));
}

RawRedis::~RawRedis()
{
    if (m_context)
        redisFree(m_context);
}

bool RawRedis::isConnected() const
{
    return m_context && !m_context->err;
}

QString RawRedis::errorString() const
{
    return m_error;
}

void RawRedis::fail(const QString &message)
{
    m_error = message;
    if (m_context) {
        redisFree(m_context);
        m_context = nullptr;
    }
}

RedisValue RawRedis::transportError()
{
    if (m_context && m_context->err)
        fail(QString::fromUtf8(m_context->errstr));
    if (m_error.isEmpty())
        m_error = QStringLiteral("not connected");
    return RedisValue::error("RAWREDIS " + m_error.toUtf8());
}

RedisValue RawRedis::command(const QList<QByteArray> &argv)
{
    if (!isConnected())
        return transportError();
    ArgvView view(argv); // non-const: hiredis 0.14 takes const char **
    void *reply = redisCommandArgv(m_context, view.count(), view.pointers.data(), view.lengths.data());
    if (!reply)
        return transportError();
    return consume(reply);
}

void RawRedis::append(const QList<QByteArray> &argv)
{
    if (!isConnected())
        return;
    ArgvView view(argv); // non-const: hiredis 0.14 takes const char **
    if (redisAppendCommandArgv(m_context, view.count(), view.pointers.data(), view.lengths.data()) != REDIS_OK)
        transportError();
}

void RawRedis::flush()
{
    if (!isConnected())
        return;
    int done = 0;
    while (!done)
        if (redisBufferWrite(m_context, &done) != REDIS_OK) {
            transportError();
            return;
        }
}

RedisValue RawRedis::readReply(int timeoutMs, bool *timedOut)
{
    if (timedOut)
        *timedOut = false;
    if (!isConnected())
        return transportError();

    // Appended commands sit in hiredis's output buffer until someone flushes it.
    int done = 0;
    while (!done) {
        if (redisBufferWrite(m_context, &done) != REDIS_OK)
            return transportError();
    }

    const QDeadlineTimer deadline(timeoutMs < 0 ? defaultTimeoutMs : timeoutMs);
    for (;;) {
        void *reply = nullptr;
        if (redisGetReplyFromReader(m_context, &reply) != REDIS_OK)
            return transportError();
        if (reply)
            return consume(reply);

        pollfd descriptor { m_context->fd, POLLIN, 0 };
        const int ready = ::poll(&descriptor, 1, static_cast<int>(deadline.remainingTime()));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0) {
            fail(QStringLiteral("poll failed: %1").arg(QString::fromLocal8Bit(strerror(errno))));
            return transportError();
        }
        if (ready == 0) {
            // A partial reply stays in the reader, so the next call picks up where this one stopped.
            if (timedOut)
                *timedOut = true;
            return RedisValue::error(QByteArrayLiteral("RAWREDIS timed out after ") + QByteArray::number(timeoutMs)
                + QByteArrayLiteral(" ms"));
        }
        // Data (or EOF) is waiting, so this read does not block.
        if (redisBufferRead(m_context) != REDIS_OK)
            return transportError();
    }
}

bool RawRedis::clientRunning(const QByteArray &command)
{
    return this->command({ "CLIENT", "LIST" }).bytes().contains("cmd=" + command);
}

QByteArray RawRedis::get(const QByteArray &key)
{
    const RedisValue reply = command({ QByteArrayLiteral("GET"), key });
    return reply.isString() ? reply.bytes() : QByteArray();
}

qint64 RawRedis::pttl(const QByteArray &key)
{
    const RedisValue reply = command({ QByteArrayLiteral("PTTL"), key });
    return reply.isInteger() ? reply.toInteger() : std::numeric_limits<qint64>::min();
}

QByteArray RawRedis::type(const QByteArray &key)
{
    const RedisValue reply = command({ QByteArrayLiteral("TYPE"), key });
    return reply.isStatus() ? reply.bytes() : QByteArray();
}

QMap<QByteArray, QByteArray> RawRedis::hgetall(const QByteArray &key)
{
    QMap<QByteArray, QByteArray> fields;
    const RedisValue reply = command({ QByteArrayLiteral("HGETALL"), key });
    for (int i = 0; i + 1 < reply.size(); i += 2)
        fields.insert(reply.at(i).bytes(), reply.at(i + 1).bytes());
    return fields;
}

} // namespace LockScope::Test
