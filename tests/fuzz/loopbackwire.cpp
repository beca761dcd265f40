#include "loopbackwire.h"

#include "loopbackpeer.h"
#include "redis/redisconnection.h"
#include "redis/redisscript.h"
#include "redis/redissubscriber.h"
#include "redis/respcodec.h"
#include "valuewalk.h"

#include <QCoreApplication>

#include <functional>
#include <memory>
#include <vector>

namespace LockScope::Fuzz {

namespace {

// Each write costs a few event loop rounds; past this many the rest goes at once (the reader mode cuts finer).
constexpr qsizetype kMaxWrites = 48;

LoopbackPeer &peer()
{
    static LoopbackPeer instance; // after the QCoreApplication of LLVMFuzzerInitialize, and destroyed before it
    return instance;
}

ConnectionOptions wireOptions(quint8 flags)
{
    ConnectionOptions o;
    o.host = QStringLiteral("127.0.0.1");
    o.port = peer().port();
    // No deadline and no reconnect timer: what happens must depend on the bytes, not on how fast this machine is.
    o.connectTimeoutMs = 0;
    o.commandTimeoutMs = 0;
    o.autoReconnect = false;
    if (flags & 0x01)
        o.password = "fuzz-secret"; // the handshake's AUTH reply comes from the fuzz bytes too
    if (flags & 0x02)
        o.user = "fuzzer";
    if (flags & 0x04)
        o.db = 3;
    if (flags & 0x08)
        o.replicaConnection = true;
    if (flags & 0x10)
        o.readOnly = true;
    return o;
}

void checkResult(const RedisResult &r)
{
    // An error reply is value and typed error at once; a failure without a reply carries no value.
    FUZZ_CHECK(r.value.isError() == (r.error.isError() && !r.value.isNil()));
    walkValue(r.value);
    r.error.toString();
}

const RedisScript &script()
{
    static const RedisScript s("return redis.call('hincrby', KEYS[1], ARGV[2], 1)");
    return s;
}
} // namespace

void runConnection(FuzzInput &in)
{
    const quint8 flags = in.byte();
    const int initial = in.byte() % 8;
    SeededChoices chunks(in.byte());
    SeededChoices ops(in.byte());
    const QByteArray bytes = in.rest();

    LoopbackPeer &wire = peer();
    wire.reset();
    auto connection = std::make_unique<RedisConnection>(wireOptions(flags));
    if (flags & 0x80)
        connection->setPushHandler([](const RedisValue &v) { walkValue(v); });

    std::vector<int> calls; // per command: how often its callback ran
    bool inside = false;
    int followUps = 16;
    std::function<void(quint32)> issue = [&](quint32 choice) {
        const size_t id = calls.size();
        calls.push_back(0);
        auto callback = [&, id](const RedisResult &r) {
            FUZZ_CHECK(!inside); // callbacks run later, never inside command()
            FUZZ_CHECK(++calls[id] == 1);
            checkResult(r);
            if ((flags & 0x40) && followUps > 0) {
                --followUps;
                issue(quint32(id) * 7 + 1); // what a lock client does: the next command from a reply
            }
        };
        inside = true;
        switch (choice % 6) {
        case 0:
            connection->command({ "PING" }, callback);
            break;
        case 1:
            connection->command({ "HGETALL", "lock" }, callback);
            break;
        case 2:
            connection->command({ "SET", "k", "v" }, callback); // a write: refused before the wire when read-only
            break;
        case 3:
            connection->eval(script(), { "lock" }, { "30000", "owner" }, callback); // NOSCRIPT replies resend
            break;
        case 4:
            connection->command({ "CLUSTER", "SHARDS" }, callback);
            break;
        default:
            connection->command({ "PTTL", QByteArray(choice % 3, '\0') + "lock" }, callback);
            break;
        }
        inside = false;
    };
    const auto outstanding = [&] {
        int n = 0;
        for (int c : calls)
            n += c == 0;
        return n;
    };

    for (int i = 0; i < initial; ++i)
        issue(ops.next());
    connection->open();
    wire.pumpUntil([&] { return wire.connected(); }, 1000);
    for (qsizetype at = 0, writes = 0; at < bytes.size(); ++writes) {
        const qsizetype n = writes < kMaxWrites ? chunks.chunk(bytes.size() - at) : bytes.size() - at;
        wire.write(bytes.mid(at, n));
        at += n;
        switch (ops.below(16)) {
        case 0:
            issue(ops.next());
            break;
        case 1:
            connection->commandDeferred({ "DEL", "latch" });
            break;
        case 2:
            connection->flushDeferred();
            break;
        case 3:
            connection->cork();
            issue(ops.next());
            issue(ops.next());
            connection->uncork();
            break;
        case 4:
            connection->abandon(RedisError(RedisError::Kind::Timeout, QStringLiteral("fuzz: abandoned")));
            break;
        default:
            break;
        }
    }
    if (flags & 0x20)
        wire.closeAll();
    connection->close();
    wire.pumpUntil([&] { return outstanding() == 0; }, 1000);
    FUZZ_CHECK(outstanding() == 0); // closed: every command has had its answer or its error
    FUZZ_CHECK(connection->pendingCount() == 0);
    connection.reset();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    wire.reset();
}

void runSubscriber(FuzzInput &in)
{
    const quint8 flags = in.byte();
    const int initial = 1 + in.byte() % 4;
    SeededChoices chunks(in.byte());
    SeededChoices ops(in.byte());
    const QByteArray bytes = in.rest();
    using Kind = RedisSubscriptions::Kind;

    LoopbackPeer &wire = peer();
    wire.reset();
    auto subscriber = std::make_unique<RedisSubscriber>(wireOptions(flags & 0x07));
    subscriber->setPingInterval(0);
    QObject::connect(subscriber.get(), &RedisSubscriptions::message, [](const QByteArray &c, const QByteArray &p) {
        LockNameMap::fromChannel(c);
        escapeBytes(p, 64);
    });
    QObject::connect(subscriber.get(), &RedisSubscriptions::shardMessage,
        [](const QByteArray &c, const QByteArray &) { LockNameMap::fromChannel(c); });
    QObject::connect(subscriber.get(), &RedisSubscriptions::patternMessage,
        [](const QByteArray &, const QByteArray &c, const QByteArray &) { LockNameMap::fromKey(c); });

    std::vector<int> confirmations;
    const auto name = [](quint32 r) { return "ch" + QByteArray::number((r >> 2) % 4); };
    const auto subscribe = [&](quint32 r) {
        const size_t id = confirmations.size();
        confirmations.push_back(0);
        subscriber->subscribe(Kind(r % 3), name(r), [&confirmations, id](const RedisError &e) {
            FUZZ_CHECK(++confirmations[id] == 1);
            FUZZ_CHECK(e.kind() == RedisError::Kind::None || e.kind() == RedisError::Kind::Reply
                || e.kind() == RedisError::Kind::Auth || e.kind() == RedisError::Kind::Permission);
        });
    };

    for (int i = 0; i < initial; ++i)
        subscribe(ops.next());
    wire.pumpUntil([&] { return wire.connected(); }, 1000);
    for (qsizetype at = 0, writes = 0; at < bytes.size(); ++writes) {
        const qsizetype n = writes < kMaxWrites ? chunks.chunk(bytes.size() - at) : bytes.size() - at;
        wire.write(bytes.mid(at, n));
        at += n;
        const quint32 r = ops.next();
        if (r % 8 == 0)
            subscribe(r >> 3);
        else if (r % 8 == 1)
            subscriber->unsubscribe(Kind((r >> 3) % 3), name(r >> 3));
    }
    if (flags & 0x20)
        wire.closeAll();
    wire.pump(3);
    if (!subscriber->connection()->isReady()) {
        // Confirmed means acknowledged on the current connection: none survives a drop.
        for (int kind = 0; kind < 3; ++kind)
            for (quint32 channel = 0; channel < 4; ++channel)
                FUZZ_CHECK(!subscriber->isConfirmed(Kind(kind), name(channel << 2)));
    }
    subscriber.reset();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    wire.reset();
}

} // namespace LockScope::Fuzz
