#include "hiredisloop.h"

#include "benchcommon.h"
#include "kinds/locknames.h"
#include "kinds/reentrant/lockscripts.h"

#include <hiredis.h>

#include <memory>
#include <vector>

namespace LockScope::Bench {

namespace {
struct ReplyDeleter
{
    void operator()(redisReply *r) const { freeReplyObject(r); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

QByteArray describe(const redisReply *r)
{
    switch (r->type) {
    case REDIS_REPLY_NIL:
        return "nil";
    case REDIS_REPLY_INTEGER:
        return QByteArray::number(r->integer);
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_ERROR:
        return QByteArray(r->str, int(r->len));
    default:
        return "(array)";
    }
}

// Built once per loop, so the timed part only swaps the one argument that changes per cycle.
class Argv
{
public:
    explicit Argv(QList<QByteArray> args)
        : m_args(std::move(args))
    {
        for (const auto &a : std::as_const(m_args)) {
            m_ptrs.push_back(a.constData());
            m_lens.push_back(size_t(a.size()));
        }
    }
    void set(qsizetype i, const QByteArray &a)
    {
        m_args[i] = a;
        m_ptrs[size_t(i)] = m_args.at(i).constData();
        m_lens[size_t(i)] = size_t(a.size());
    }
    int append(redisContext *c) { return redisAppendCommandArgv(c, int(m_ptrs.size()), m_ptrs.data(), m_lens.data()); }

private:
    QList<QByteArray> m_args;
    std::vector<const char *> m_ptrs;
    std::vector<size_t> m_lens;
};
} // namespace

HiredisLoop::~HiredisLoop()
{
    if (m_context)
        redisFree(m_context);
}

redisContext *connectHiredis(const ConnectionOptions &options, const QString &who, QString *error)
{
    if (options.tls) {
        *error = QStringLiteral("%1 has no TLS (hiredis); give a plain redis:// URL").arg(who);
        return nullptr;
    }
    const timeval timeout { options.connectTimeoutMs / 1000, (options.connectTimeoutMs % 1000) * 1000 };
    redisContext *context = redisConnectWithTimeout(options.host.toUtf8().constData(), options.port, timeout);
    if (!context || context->err) {
        *error = QStringLiteral("hiredis connect to %1:%2: %3")
                     .arg(options.host)
                     .arg(options.port)
                     .arg(QString::fromUtf8(context ? context->errstr : "out of memory"));
        if (context)
            redisFree(context);
        return nullptr;
    }
    return context;
}

bool HiredisLoop::connect(const ConnectionOptions &options, QString *error)
{
    m_context = connectHiredis(options, QStringLiteral("the hiredis baseline"), error);
    if (!m_context)
        return false;
    QByteArray reply;
    if (!options.password.isEmpty()) {
        QList<QByteArray> auth { "AUTH" };
        if (!options.user.isEmpty())
            auth << options.user;
        auth << options.password;
        if (!run(auth, &reply, error))
            return false;
    }
    if (options.db != 0 && !run({ "SELECT", QByteArray::number(options.db) }, &reply, error))
        return false;
    return true;
}

bool HiredisLoop::run(const QList<QByteArray> &argv, QByteArray *text, QString *error)
{
    Argv args(argv);
    void *raw = nullptr;
    if (args.append(m_context) != REDIS_OK || redisGetReply(m_context, &raw) != REDIS_OK) {
        *error = QStringLiteral("hiredis: %1").arg(QString::fromUtf8(m_context->errstr));
        return false;
    }
    Reply reply(static_cast<redisReply *>(raw));
    *text = describe(reply.get());
    if (reply->type == REDIS_REPLY_ERROR) {
        *error = QStringLiteral("%1: %2").arg(QString::fromUtf8(argv.first()), QString::fromUtf8(*text));
        return false;
    }
    return true;
}

bool HiredisLoop::loadScripts(QString *error)
{
    for (const RedisScript *script : { &LockScripts::acquire(), &LockScripts::release() }) {
        QByteArray sha;
        if (!run({ "SCRIPT", "LOAD", script->source() }, &sha, error))
            return false;
        if (sha != script->sha1()) {
            *error = QStringLiteral("SCRIPT LOAD answered %1, expected %2")
                         .arg(QString::fromUtf8(sha), QString::fromUtf8(script->sha1()));
            return false;
        }
    }
    return true;
}

Rate HiredisLoop::pingUntil(qint64 deadlineNs, QString *error)
{
    const char *argv[] = { "PING" }; // hiredis 0.14 takes non-const argv arrays
    const size_t lens[] = { 4 };
    Rate rate;
    const qint64 start = nowNs();
    qint64 now = start;
    while (now < deadlineNs) {
        auto *reply = static_cast<redisReply *>(redisCommandArgv(m_context, 1, argv, lens));
        if (!reply) {
            *error = QStringLiteral("hiredis PING: %1").arg(QString::fromUtf8(m_context->errstr));
            break;
        }
        freeReplyObject(reply);
        ++rate.count;
        now = nowNs();
    }
    rate.elapsedNs = now - start;
    return rate;
}

bool HiredisLoop::drainPending(QString *error)
{
    while (m_pending > 0) {
        void *raw = nullptr;
        if (redisGetReply(m_context, &raw) != REDIS_OK) {
            *error = QStringLiteral("hiredis: %1").arg(QString::fromUtf8(m_context->errstr));
            return false;
        }
        Reply reply(static_cast<redisReply *>(raw));
        --m_pending;
        if (reply->type != REDIS_REPLY_INTEGER) {
            *error = QStringLiteral("latch DEL answered %1").arg(QString::fromUtf8(describe(reply.get())));
            return false;
        }
    }
    return true;
}

Rate HiredisLoop::lockCyclesUntil(const LockCycle &cycle, qint64 deadlineNs, QString *error)
{
    const QByteArray lease = QByteArray::number(cycle.leaseMs);
    const QByteArray channel = LockNames::lockChannel(cycle.name);
    const QByteArray latchTtl = QByteArray::number(cycle.latchTtlMs);
    QByteArray latch = LockNames::unlockLatch(cycle.name, LockNames::newRequestId());
    // The same arguments as LockClient's: the aux keys that the kind check reads.
    Argv acquire({ "EVALSHA", LockScripts::acquire().sha1(), "1", cycle.name, lease, cycle.owner,
        LockNames::fencingToken(cycle.name), LockNames::fairQueue(cycle.name), LockNames::fairTimeouts(cycle.name) });
    Argv release({ "EVALSHA", LockScripts::release().sha1(), "3", cycle.name, channel, latch, "0", lease, cycle.owner,
        cycle.publishCommand, latchTtl });
    const qsizetype releaseLatchArg = 5;
    Argv del({ "DEL", latch });

    auto nextReply = [&](const char *what) -> Reply {
        void *raw = nullptr;
        if (redisGetReply(m_context, &raw) != REDIS_OK) {
            *error = QStringLiteral("hiredis %1: %2").arg(QLatin1String(what), QString::fromUtf8(m_context->errstr));
            return nullptr;
        }
        return Reply(static_cast<redisReply *>(raw));
    };

    Rate rate;
    const qint64 start = nowNs();
    qint64 now = start;
    while (now < deadlineNs) {
        // The previous cycle's DEL and this acquire leave together, and their replies come back in order.
        acquire.append(m_context);
        if (!drainPending(error))
            break;
        Reply acquired = nextReply("acquire");
        if (!acquired)
            break;
        if (acquired->type != REDIS_REPLY_NIL) {
            *error = QStringLiteral("raw acquire answered %1, expected nil")
                         .arg(QString::fromUtf8(describe(acquired.get())));
            break;
        }
        // A fresh request id per unlock, as the protocol requires: its cost belongs to the cycle.
        latch = LockNames::unlockLatch(cycle.name, LockNames::newRequestId());
        release.set(releaseLatchArg, latch);
        release.append(m_context);
        Reply released = nextReply("release");
        if (!released)
            break;
        if (released->type != REDIS_REPLY_INTEGER || released->integer != 1) {
            *error = QStringLiteral("raw release answered %1, expected 1")
                         .arg(QString::fromUtf8(describe(released.get())));
            break;
        }
        del.set(1, latch);
        del.append(m_context);
        ++m_pending;
        ++rate.count;
        now = nowNs();
    }
    rate.elapsedNs = now - start;
    // Outside the timed span: the last DEL's reply must not be left for whoever uses the connection next.
    if (error->isEmpty())
        drainPending(error);
    return rate;
}

} // namespace LockScope::Bench
