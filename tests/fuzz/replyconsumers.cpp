#include "replyconsumers.h"

#include "clients/cliententry.h"
#include "clients/tracereader.h"
#include "guide/guideobserver.h"
#include "kinds/lockscanner.h"
#include "lock/replicasync.h"
#include "loopbackpeer.h"
#include "monitor/keyreader.h"
#include "monitor/lockrecordstore.h"
#include "monitor/ttlwatch.h"
#include "redis/monitorline.h"
#include "redis/publishmoderesolver.h"
#include "redis/redisrouter.h"
#include "scriptedcommander.h"

#include <QCoreApplication>
#include <QSet>

#include <climits>
#include <memory>
#include <vector>

namespace LockScope::Fuzz {

namespace {

// Each write costs a few event loop rounds; past this many the rest goes at once.
constexpr qsizetype kMaxWrites = 48;

ConnectionOptions wireOptions(const LoopbackPeer &wire)
{
    ConnectionOptions o;
    o.host = QStringLiteral("127.0.0.1");
    o.port = wire.port();
    // No deadline and no reconnect: what happens must depend on the bytes, not on how fast this machine is.
    o.connectTimeoutMs = 0;
    o.commandTimeoutMs = 0;
    o.autoReconnect = false;
    return o;
}

// The server's bytes in chunks, then the server goes away and the client has a few rounds to notice.
void serve(LoopbackPeer &wire, const QByteArray &bytes, SeededChoices &chunks)
{
    for (qsizetype at = 0, writes = 0; at < bytes.size(); ++writes) {
        const qsizetype n = writes < kMaxWrites ? chunks.chunk(bytes.size() - at) : bytes.size() - at;
        wire.write(bytes.mid(at, n));
        at += n;
    }
    wire.closeAll();
}

// WAIT always answers an integer (the replicas that acknowledged): anything else is no count of acknowledgements.
bool acknowledgementCount(const RedisResult &r)
{
    return r.ok() && r.value.isInteger() && r.value.toInteger() >= 0;
}

} // namespace

void replicaWait(FuzzInput &in)
{
    const quint8 flags = in.byte();
    const int timeoutMs = (flags & 1) ? 0 : 1 + in.byte();
    const bool undoUnsynced = flags & 2;
    const int path = (flags >> 2) % 3;
    const int writes = 1 + (flags >> 4) % 3;
    const quint8 undoAnswer = in.byte();
    ScriptedCommander server(in.rest());
    QList<RedisResult> waits; // what each WAIT was answered, in order
    server.onAnswer([&](const QList<QByteArray> &argv, const RedisResult &r) {
        if (argv.first() != "WAIT")
            return;
        // Waited for only with replicas to wait for, and never longer than asked.
        FUZZ_CHECK(argv.size() == 3 && argv.at(1).toInt() > 0 && argv.at(2).toInt() == timeoutMs);
        waits << r;
    });
    ReplicaSync sync(&server, timeoutMs, undoUnsynced);

    for (int write = 0; write < writes; ++write) {
        const qsizetype waitsBefore = waits.size();
        int answers = 0;
        int undos = 0;
        ReplicaSync::Ack seen;
        bool acked = false;
        const auto checkAck = [&](const ReplicaSync::Ack &ack) {
            FUZZ_CHECK(ack.replicas >= 0 && ack.acknowledged >= 0);
            if (ack.error.isError())
                FUZZ_CHECK(!ack.error.message().isEmpty() && !ack.noneSynced());
            seen = ack;
            acked = true;
        };
        if (path == 0) {
            sync.afterWrite("lock", [&](const ReplicaSync::Ack &ack) {
                ++answers;
                checkAck(ack);
            });
        } else if (path == 1) {
            AcquireResult held;
            held.acquired = true;
            held.name = "lock";
            held.owner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";
            held.leaseMs = 30000;
            const auto done = sync.checkedAcquire(
                [&](const AcquireResult &r) {
                    ++answers;
                    // Given back only as NotSynced, with why; kept, it is the acquire as it was answered.
                    if (!r.acquired)
                        FUZZ_CHECK(r.error.kind() == RedisError::Kind::NotSynced && !r.error.message().isEmpty());
                    else
                        FUZZ_CHECK(!r.error.isError());
                },
                [&](const AcquireResult &, ReplicaSync::Callback<ReleaseResult> undone) {
                    ++undos;
                    ReleaseResult release;
                    release.name = "lock";
                    release.outcome = ReleaseResult::Outcome(undoAnswer % 3);
                    if (undoAnswer & 0x80)
                        release.error = RedisError(RedisError::Kind::Io, QStringLiteral("fuzz: undo lost"));
                    undone(release);
                });
            done(held);
        } else {
            ReleaseResult released;
            released.name = "lock";
            released.outcome = ReleaseResult::Outcome((flags >> 6) % 3);
            const auto done = sync.syncedRelease([&, released](const ReleaseResult &r) {
                ++answers;
                FUZZ_CHECK(r.outcome == released.outcome); // a release is never undone
            });
            done(released);
        }
        server.drain();
        FUZZ_CHECK(answers == 1); // one answer, whatever the replicas said and when the server went away
        FUZZ_CHECK(!server.corked());
        // Undone only when asked to, after a WAIT that counted no acknowledgement.
        FUZZ_CHECK(undos <= 1);
        if (undos == 1) {
            FUZZ_CHECK(undoUnsynced && waits.size() > waitsBefore);
            FUZZ_CHECK(acknowledgementCount(waits.back()) && waits.back().value.toInteger() == 0);
        }
        if (path == 0 && waits.size() > waitsBefore) {
            // The answer to WAIT is what the ack says: a count where it was one, else a typed error, never a made-up
            // count (a status or a string read as 0 acknowledgements would undo an acquire the replicas had).
            FUZZ_CHECK(acked);
            const RedisResult &wait = waits.back();
            if (acknowledgementCount(wait)) {
                FUZZ_CHECK(!seen.error.isError());
                FUZZ_CHECK(qint64(seen.acknowledged) == qMin(wait.value.toInteger(), qint64(INT_MAX)));
            } else {
                FUZZ_CHECK(seen.error.isError());
            }
        }
    }
}

void publishMode(FuzzInput &in, LoopbackPeer &wire)
{
    const quint8 flags = in.byte();
    SeededChoices chunks(in.byte());
    QByteArray bytes = in.rest();
    // A slot map's nodes are this peer: the port 7000 the seeds' maps name is its port.
    bytes.replace(":7000\r\n", ":" + QByteArray::number(wire.port()) + "\r\n");
    wire.reset();

    ConnectionOptions o = wireOptions(wire);
    const PublishMode asked = PublishMode(flags % 4);
    o.publishMode = asked;
    o.topology = ConnectionOptions::Topology((flags >> 2) % 3);
    auto router = std::make_unique<RedisRouter>(o);
    auto resolver = std::make_unique<PublishModeResolver>(router.get());
    int resolved = 0;
    int notices = 0;
    QObject::connect(resolver.get(), &PublishModeResolver::resolved, [&](PublishMode mode) {
        ++resolved;
        FUZZ_CHECK(mode == PublishMode::Plain || mode == PublishMode::Sharded);
    });
    QObject::connect(resolver.get(), &PublishModeResolver::notice, [&](const QString &text) {
        ++notices;
        FUZZ_CHECK(asked == PublishMode::Both && !text.isEmpty()); // only "both" falls back, and says so
    });
    std::vector<int> ran(2, 0);
    resolver->whenKnown([&] { ++ran[0]; });
    router->open();
    wire.pumpUntil([&] { return wire.connected(); }, 1000);
    if (flags & 0x10)
        resolver->whenKnown([&] { ++ran[1]; });
    serve(wire, bytes, chunks);
    const bool deterministic = o.topology == ConnectionOptions::Topology::Standalone;
    if (deterministic)
        wire.pumpUntil([&] { return ran[0] > 0 && (ran[1] > 0 || !(flags & 0x10)); }, 1000);
    else
        wire.pump(4);

    // Every waiting release runs once: on an answer, or once the server is gone (then it reports the loss itself).
    FUZZ_CHECK(ran[0] <= 1 && ran[1] <= 1);
    if (deterministic)
        FUZZ_CHECK(ran[0] == 1 && (ran[1] == 1 || !(flags & 0x10)));
    FUZZ_CHECK(resolved <= 1 && notices <= 1);
    const PublishMode mode = resolver->mode();
    const RedisError refusal = resolver->refusal();
    // Refused only for "sharded" on a server without sharded pub/sub, by a typed error that says what to do.
    if (refusal.isError())
        FUZZ_CHECK(asked == PublishMode::Sharded && refusal.kind() == RedisError::Kind::InvalidArgument
            && !refusal.message().isEmpty());
    // A mode asked for stands; "both" may only fall back to plain; auto never picks "both".
    if (asked == PublishMode::Plain || asked == PublishMode::Sharded)
        FUZZ_CHECK(mode == asked);
    if (asked == PublishMode::Both)
        FUZZ_CHECK(mode == PublishMode::Both || (mode == PublishMode::Plain && notices == 1));
    if (asked == PublishMode::Auto) {
        FUZZ_CHECK(mode != PublishMode::Both);
        // Outside a cluster Redisson always publishes plainly.
        if (mode == PublishMode::Sharded)
            FUZZ_CHECK(router->mode() == RedisRouter::Mode::Cluster);
    }
    FUZZ_CHECK(!resolver->publishCommand().isEmpty() && !resolver->waitKinds().isEmpty());

    resolver.reset();
    router.reset();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    wire.reset();
}

void ttlPoll(FuzzInput &in, LoopbackPeer &wire)
{
    const quint8 flags = in.byte();
    const int own = in.byte() % 4;
    SeededChoices chunks(in.byte());
    LockRecordStore records(8, 100);
    QSet<QByteArray> held; // the records with holders: the only ones polled
    QList<QByteArray> watched;
    for (int n = 1 + in.byte() % 4; n > 0; --n) {
        const QByteArray name = in.piece();
        const quint8 shape = in.byte();
        LockRecord &r = records.obtain(name);
        const bool was = r.present;
        r.present = true;
        r.info.name = name;
        // A kind of lock (NotALock is never a present record): its layout names the wake-up channel, or none.
        r.info.kind = LockInfo::Kind(1 + shape % int(LockInfo::Kind::UniqueJob));
        if (shape & 0x80) {
            LockHolder holder;
            holder.owner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";
            r.info.holders << holder;
            held.insert(name);
        }
        records.notePresence(name, was, true);
        if (shape & 0x40)
            watched << name;
    }
    const QByteArray bytes = in.rest();
    wire.reset();

    ConnectionOptions o = wireOptions(wire);
    o.topology = ConnectionOptions::Topology::Standalone;
    o.publishMode = (flags & 1) ? PublishMode::Sharded : PublishMode::Plain; // sharded: SHARDNUMSUB too
    auto router = std::make_unique<RedisRouter>(o);
    TtlWatch::Sources sources;
    sources.connection = router.get();
    sources.records = &records;
    sources.ready = [] { return true; };
    sources.ownShardListeners = [own](const QByteArray &) { return own; };
    auto watch = std::make_unique<TtlWatch>(sources);
    if (flags & 2)
        watch->setWatched(watched);
    int polls = 0;
    QObject::connect(watch.get(), &TtlWatch::polled, [&](const TtlReadings &readings) {
        ++polls;
        // Readings only of the locks polled, and within what they can be: no count of waiters below zero, the
        // shard channel's a part of all of them.
        for (auto it = readings.ttls.cbegin(); it != readings.ttls.cend(); ++it)
            FUZZ_CHECK(held.contains(it.key()));
        for (auto it = readings.waiters.cbegin(); it != readings.waiters.cend(); ++it)
            FUZZ_CHECK(held.contains(it.key()) && it.value() >= 0);
        for (auto it = readings.shardWaiters.cbegin(); it != readings.shardWaiters.cend(); ++it)
            FUZZ_CHECK(it.value() >= 0 && it.value() <= readings.waiters.value(it.key()));
    });
    router->open();
    wire.pumpUntil([&] { return wire.connected() && router->isReady(); }, 1000);
    watch->startPolling(1);
    wire.pumpUntil([&] { return wire.commandsSeen() > 0; }, held.isEmpty() ? 5 : 200);
    const bool sent = wire.commandsSeen() > 0;
    serve(wire, bytes, chunks);
    wire.pumpUntil([&] { return polls > 0; }, sent ? 1000 : 5);
    // A round that went out ends, answered or not (the next round waits for it: none may stay in flight).
    if (sent)
        FUZZ_CHECK(polls >= 1);
    watch.reset();
    router.reset();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    wire.reset();
}

void keyReads(FuzzInput &in)
{
    const quint8 flags = in.byte();
    QList<QByteArray> marked;
    for (int n = 1 + in.byte() % 6; n > 0; --n)
        marked << in.piece();
    ScriptedCommander server(in.rest());
    LockScanner::Options options;
    options.typedWalks = flags & 1;
    options.shardWaiters = flags & 2;
    options.stringPatterns = StringLockPatterns::fromEntries(StringLockPatterns::defaults());
    LockScanner scanner(&server, options);
    KeyReader reader(&scanner, 3600 * 1000); // a failed batch waits for the connection: not within this input
    const QSet<QByteArray> names(marked.cbegin(), marked.cend());
    QSet<QByteArray> answered;
    int batches = 0;
    int failures = 0;
    QObject::connect(
        &reader, &KeyReader::answered, [&](const QList<KeyReader::Answer> &answers, const QList<QByteArray> &rejected) {
            ++batches;
            for (const KeyReader::Answer &a : answers) {
                // Each marked key is answered once, with a lock of its own name or nothing.
                FUZZ_CHECK(names.contains(a.name) && !answered.contains(a.name));
                answered.insert(a.name);
                if (a.read)
                    FUZZ_CHECK(a.read->name == a.name && a.read->kind != LockInfo::Kind::NotALock);
            }
            for (const QByteArray &name : rejected)
                FUZZ_CHECK(names.contains(name));
        });
    QObject::connect(&reader, &KeyReader::failed, [&](const RedisError &error) {
        ++failures;
        FUZZ_CHECK(error.isError());
    });
    for (const QByteArray &name : std::as_const(marked))
        reader.mark(name);
    for (int round = 0; round < 64 && failures == 0 && !reader.isIdle(); ++round) {
        QCoreApplication::processEvents();
        server.drain();
    }
    // Read to the end, or failed with the connection: never idle with keys unanswered.
    if (failures == 0) {
        FUZZ_CHECK(reader.isIdle());
        FUZZ_CHECK(answered == names);
    }
    FUZZ_CHECK(!server.corked());
}

namespace {
// MONITOR's quoting (sdscatrepr): what the server shows for an argument.
QByteArray quoted(const QByteArray &arg)
{
    QByteArray out = "\"";
    for (const char c : arg) {
        switch (c) {
        case '\\':
            out += "\\\\";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\a':
            out += "\\a";
            break;
        case '\b':
            out += "\\b";
            break;
        default:
            if (uchar(c) >= 0x20 && uchar(c) < 0x7f)
                out += c;
            else
                out += "\\x" + QByteArray::number(uchar(c), 16).rightJustified(2, '0');
        }
    }
    return out + '"';
}
} // namespace

void monitorLines(FuzzInput &in)
{
    const quint8 flags = in.byte();
    if (flags & 1) {
        // A line as Redis writes it, from fuzzed arguments: read back to the same client and arguments.
        QByteArray client = in.piece();
        client.replace(']', "");
        if (client.isEmpty())
            client = "lua";
        QList<QByteArray> argv;
        for (int n = 1 + in.byte() % 6; n > 0; --n)
            argv << in.piece();
        QByteArray line = "1700000000.123456 [0 " + client + "]";
        for (const QByteArray &arg : std::as_const(argv))
            line += ' ' + quoted(arg);
        QByteArray gotClient;
        QList<QByteArray> gotArgv;
        FUZZ_CHECK(Guide::GuideObserver::parseMonitorLine(line, &gotClient, &gotArgv));
        FUZZ_CHECK(gotClient == client && gotArgv == argv);
        MonitorLine parsed;
        FUZZ_CHECK(parseMonitorLine(line, &parsed));
        FUZZ_CHECK(parsed.timestampUs == 1700000000123456 && parsed.db == 0 && parsed.client == client);
        return;
    }
    // Whatever the server sends as lines: parsed or refused, never more than the line holds. The trace reads the same
    // lines (owners, tokens, retriers), and the whole as a CLIENT LIST.
    const QByteArray rest = in.rest();
    const QList<QByteArray> lines = rest.split('\n');
    TraceReader reader(1 + (flags >> 1) % 16); // small bounds, so that the limits are reached too
    for (const QByteArray &line : lines) {
        reader.read((flags & 2) ? QByteArray("127.0.0.1:7000") : QByteArray(), line);
        QByteArray client;
        QList<QByteArray> argv;
        MonitorLine parsed;
        const bool guideParsed = Guide::GuideObserver::parseMonitorLine(line, &client, &argv);
        FUZZ_CHECK(guideParsed == parseMonitorLine(line, &parsed)); // one parser, two doors
        if (!guideParsed)
            continue;
        FUZZ_CHECK(parsed.client == client && parsed.argv == argv && parsed.timestampUs >= 0);
        FUZZ_CHECK(!argv.isEmpty() && client.size() < line.size());
        qsizetype total = 0;
        for (const QByteArray &arg : std::as_const(argv))
            total += arg.size() + 2; // each argument came with its quotes at least
        FUZZ_CHECK(total <= line.size());
    }
    TraceFindings findings;
    reader.fill(&findings);
    const int bound = 1 + (flags >> 1) % 16;
    FUZZ_CHECK(findings.cost.lines == lines.size());
    FUZZ_CHECK(findings.sightings.size() <= bound && findings.retriers.size() <= bound);
    for (const TraceFindings::Sighting &s : std::as_const(findings.sightings)) {
        // An identity is something a line carried (quoted, so never longer than the line), on the key(s) it named.
        FUZZ_CHECK(!s.identity.isEmpty() && s.commands >= 1 && s.firstMs <= s.lastMs);
        FUZZ_CHECK(s.keys.size() <= TraceReader::maxKeysPerSighting && s.identity.size() <= rest.size());
        FUZZ_CHECK(
            s.kind != TraceFindings::Sighting::Identity::Token || s.identity.size() <= TraceReader::maxTokenBytes);
    }
    for (const TraceFindings::Retrier &r : std::as_const(findings.retriers))
        FUZZ_CHECK(r.attempts >= 2 && r.attempts <= lines.size() && r.perSecond() >= 0);
    // A connection CLIENT LIST names has an id and an address the listing holds.
    const QList<ClientEntry> clients = parseClientList(rest);
    FUZZ_CHECK(clients.size() <= lines.size());
    for (const ClientEntry &c : clients)
        FUZZ_CHECK(c.id >= 0 && !c.addr.isEmpty() && rest.contains("addr=" + c.addr));
}

} // namespace LockScope::Fuzz
